"""Records graphql-core 3.3.2's answers to introspection of schema.graphql, a schema that uses
every feature of the type system, into expected.json:

  standard   the result of ../syntax/valid-introspection-query.graphql (the parser corpus's
             document of it), graphql-core's `get_introspection_query(
             descriptions=True, specified_by_url=True, directive_is_repeatable=True,
             schema_description=True, input_value_deprecation=True, one_of=True)`
  <name>     the result of each operation of queries.graphql, over root.json
  printed    `print_introspection_schema`: the specified directives and introspection types

It also checks that graphql-core's `build_client_schema` accepts the standard result and gives
back the same schema: since the Swift test requires our result to equal this one, ours is
accepted too. Regenerate after changing a file here:
  pip install graphql-core==3.3.2
  python3 Tests/GraphQLTests/Corpus/introspection/oracle.py
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "schema"))
import jsstyle  # noqa: E402

jsstyle.install()

from graphql import (  # noqa: E402
    DirectiveDefinitionNode,
    build_ast_schema,
    build_client_schema,
    build_schema,
    get_introspection_query,
    graphql_sync,
    parse,
    print_introspection_schema,
    print_schema,
    validate_schema,
)

assert __import__("graphql").__version__ == "3.3.2", "the oracle is graphql-core 3.3.2"

here = pathlib.Path(__file__).parent
schema = build_schema((here / "schema.graphql").read_text())
assert not validate_schema(schema), validate_schema(schema)
root = json.loads((here / "root.json").read_text())

standard = (here.parent / "syntax" / "valid-introspection-query.graphql").read_text()
assert standard.strip() == get_introspection_query(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
    one_of=True,
).strip(), "valid-introspection-query.graphql is not graphql-core's standard introspection query"


def run(query, operation_name=None):
    result = graphql_sync(schema, query, root_value=root, operation_name=operation_name)
    response = {}
    if result.errors:
        response["errors"] = [jsstyle.error(error) for error in result.errors]
    response["data"] = result.data
    return response


expected = {"standard": run(standard)}
# The standard query leaves deprecated directives out (it does not ask for them).
document = parse((here / "schema.graphql").read_text())
without_deprecated_directives = document.__class__(
    definitions=tuple(
        definition
        for definition in document.definitions
        if not (
            isinstance(definition, DirectiveDefinitionNode)
            and any(directive.name.value == "deprecated" for directive in definition.directives or ())
        )
    )
)
client_schema = build_client_schema(expected["standard"]["data"])
assert print_schema(client_schema) == print_schema(build_ast_schema(without_deprecated_directives)), (
    "build_client_schema did not round-trip"
)

queries = (here / "queries.graphql").read_text()
for definition in parse(queries).definitions:
    name = definition.name.value
    expected[name] = run(queries, name)

expected["printed"] = print_introspection_schema(schema)

(here / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
print(", ".join(name for name in expected))
