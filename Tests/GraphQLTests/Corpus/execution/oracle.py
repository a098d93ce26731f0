#!/usr/bin/env python3
"""Records graphql-core 3.3.2's responses for the execution corpus.

Regenerate after changing cases.json, schemas/ or roots/:

    pip install graphql-core==3.3.2
    python3 Tests/GraphQLTests/Corpus/execution/oracle.py

Each case of cases.json names a schema (schemas/<schema>.graphql, default "journal"), a root value
(roots/<root>.json, default the schema's name), a query, and optionally variables and an
operationName. The resolvers are the `storykeep gql run` contract, mirrored here:

- a field without a resolver reads the field's name from a parent dict (None otherwise);
- a value {"__error": "message"} raises a field error with that message;
- an abstract type is resolved by the object's "__typename" (graphql-core's default).

The response follows our engine's contract: no "data" key when the request fails before
execution (syntax, validation, operation selection, variable coercion), errors first. Messages
are rewritten from graphql-core's Python idiom to graphql-js's where the two differ in more than
quotes (the Swift test compares with quotes normalised): None/True/False, resolve_type and
is_type_of. The results go to expected.json, keyed by case name.
"""

import json
import pathlib
import re

from graphql import (
    Executor,
    GraphQLError,
    build_schema,
    parse,
    validate,
)

HERE = pathlib.Path(__file__).resolve().parent


def field_resolver(source, info, **_args):
    value = source.get(info.field_name) if isinstance(source, dict) else None
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("__error"), str):
        raise GraphQLError(value["__error"])
    return value


def js_message(message):
    message = message.replace("'resolve_type'", "'resolveType'").replace("'is_type_of'", "'isTypeOf'")
    return re.sub(r"\bNone\b", "null", re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", message)))


def format_error(error):
    formatted = error.formatted
    formatted["message"] = js_message(formatted["message"])
    return formatted


def run(case, schemas, roots):
    schema_name = case.get("schema", "journal")
    schema = schemas[schema_name]
    root = roots[case.get("root", schema_name)]
    try:
        document = parse(case["query"])
    except GraphQLError as error:
        return {"errors": [format_error(error)]}
    errors = validate(schema, document)
    if errors:
        return {"errors": [format_error(error) for error in errors]}
    executor = Executor.build(
        schema,
        document,
        root_value=root,
        raw_variable_values=case.get("variables"),
        operation_name=case.get("operationName"),
        field_resolver=field_resolver,
    )
    if isinstance(executor, list):
        return {"errors": [format_error(error) for error in executor]}
    result = executor.execute_operation()
    response = {}
    if result.errors:
        response["errors"] = [format_error(error) for error in result.errors]
    response["data"] = result.data
    return response


def main():
    cases = json.loads((HERE / "cases.json").read_text())
    schemas = {path.stem: build_schema(path.read_text()) for path in (HERE / "schemas").glob("*.graphql")}
    roots = {path.stem: json.loads(path.read_text()) for path in (HERE / "roots").glob("*.json")}
    expected = {case["name"]: run(case, schemas, roots) for case in cases}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
