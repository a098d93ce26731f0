"""Records graphql-core 3.3.2's input and output coercion of every case in cases.json, in
graphql-js's quoting, into expected.json (same order as the cases):

  values     [type, JSON value]      -> {"coerced": value or "<invalid>", "errors": validate_input_value}
  literals   [type, GraphQL literal] -> {"coerced": ..., "errors": validate_input_literal (static)}
  variables  literals again, with the variables of cases.json["variables"]["values"] given
  serialize  [type, JSON value]      -> {"result": value} or {"error": message}

Types are those of schema.graphql. Regenerate after changing the cases:
  pip install graphql-core==3.3.2
  python3 Tests/GraphQLTests/Corpus/coercion/oracle.py
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "schema"))
import jsstyle  # noqa: E402

jsstyle.install()

from graphql import GraphQLError, build_schema, parse, parse_value  # noqa: E402
from graphql.execution.values import get_variable_values  # noqa: E402
from graphql.language import parse_type  # noqa: E402
from graphql.pyutils import Undefined  # noqa: E402
from graphql.utilities import (  # noqa: E402
    coerce_input_literal,
    coerce_input_value,
    type_from_ast,
    validate_input_literal,
    validate_input_value,
)

assert __import__("graphql").__version__ == "3.3.2", "the oracle is graphql-core 3.3.2"

here = pathlib.Path(__file__).parent
schema = build_schema((here / "schema.graphql").read_text())
cases = json.loads((here / "cases.json").read_text())


def type_named(text):
    return type_from_ast(schema, parse_type(text))


def coerced(value):
    return "<invalid>" if value is Undefined else value


def collect(run):
    errors = []
    run(lambda error, path: errors.append({**jsstyle.error(error), "path": path}))
    return errors


def literal_case(type_text, literal_text, variables=None):
    type_ = type_named(type_text)
    literal = parse_value(literal_text)
    return {
        "coerced": coerced(coerce_input_literal(literal, type_, variables)),
        "errors": collect(lambda on_error: validate_input_literal(literal, type_, on_error, variables)),
    }


def serialize_case(type_text, value):
    try:
        return {"result": type_named(type_text).coerce_output_value(value)}
    except GraphQLError as error:
        return {"error": jsstyle.message(error.message)}


variable_values = cases["variables"]["values"]
operation = parse(
    "query($one: Int, $str: String, $nothing: Int, $point: Point, $red: Color, $missing: Int) { a }"
).definitions[0]
variables = get_variable_values(schema, operation.variable_definitions, variable_values)

expected = {
    "values": [
        {
            "coerced": coerced(coerce_input_value(value, type_named(type_text))),
            "errors": collect(
                lambda on_error, v=value, t=type_text: validate_input_value(v, type_named(t), on_error)
            ),
        }
        for type_text, value in cases["values"]
    ],
    "literals": [literal_case(type_text, literal) for type_text, literal in cases["literals"]],
    "variables": [
        literal_case(type_text, literal, variables) for type_text, literal in cases["variables"]["literals"]
    ],
    "serialize": [serialize_case(type_text, value) for type_text, value in cases["serialize"]],
}
(here / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
print({key: len(value) for key, value in expected.items()})
