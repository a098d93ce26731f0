#!/usr/bin/env python3
"""Records graphql-core 3.3.2's answers for the subscription corpus (`subscribe`).

Regenerate after changing cases.json or schema.graphql:

    pip install graphql-core==3.3.2
    python3 Tests/GraphQLTests/Corpus/subscription/oracle.py

Each case of cases.json has a query, optionally variables and an operationName, and a root value.
The root field's subscribe resolver reads the field's name from the root value, which says what
the source stream is (SubscriptionCorpusTests mirrors this contract in Swift):

- {"__events": [...]}: a stream of those events, each the root value of one execution; an event
  {"__throw": "message"} makes the stream fail with that message;
- {"__byArgument": "name", "cases": {...}}: the case named by the field's argument `name`;
- {"__error": "message"}: the resolver raises a GraphQLError with that message (a source error);
- anything else is returned as it is (not a stream).

Within events, fields are read from dicts as in the execution corpus ({"__error": "message"}
raises a field error). The answer of a case is {"result": response} when no stream was created
(request or source errors; no "data" key), else {"responses": [...]} and, when the stream failed,
"streamError": its message. Messages are rewritten as the execution corpus's oracle does.
The answers go to expected.json, keyed by case name.
"""

import asyncio
import importlib.util
import json
import pathlib

from graphql import ExecutionResult, GraphQLError, build_schema, parse, subscribe, validate

HERE = pathlib.Path(__file__).resolve().parent

# The execution corpus's resolver contract and message rewriting, shared.
_spec = importlib.util.spec_from_file_location("execution_oracle", HERE.parent / "execution" / "oracle.py")
_execution = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_execution)
field_resolver = _execution.field_resolver
js_message = _execution.js_message


def argument_key(value):
    return str(value)


async def events(items):
    for item in items:
        if isinstance(item, dict) and "__throw" in item:
            raise GraphQLError(item["__throw"])
        yield item


def subscribe_resolver(root, info, **args):
    value = field_resolver(root, info)
    if isinstance(value, dict) and "__byArgument" in value:
        value = value["cases"].get(argument_key(args.get(value["__byArgument"])))
    if isinstance(value, dict) and "__events" in value:
        return events(value["__events"])
    return value


def formatted(result, executed=True):
    """A response as our engine writes it: errors first; "data" when execution began."""
    response = {}
    if result.errors:
        response["errors"] = []
        for error in result.errors:
            entry = error.formatted
            entry["message"] = js_message(entry["message"])
            response["errors"].append(entry)
    if executed:
        response["data"] = result.data
    return response


async def run(case, schema):
    try:
        document = parse(case["query"])
    except GraphQLError as error:
        return {"result": formatted(ExecutionResult(None, [error]), executed=False)}
    errors = validate(schema, document)
    if errors:
        return {"result": formatted(ExecutionResult(None, errors), executed=False)}
    result = subscribe(
        schema,
        document,
        root_value=case["root"],
        variable_values=case.get("variables"),
        operation_name=case.get("operationName"),
        field_resolver=field_resolver,
        subscribe_field_resolver=subscribe_resolver,
    )
    if asyncio.iscoroutine(result):
        result = await result
    if isinstance(result, ExecutionResult):
        return {"result": formatted(result, executed=False)}
    answer = {"responses": []}
    try:
        async for response in result:
            answer["responses"].append(formatted(response))
    except GraphQLError as error:
        answer["streamError"] = js_message(error.message)
    return answer


def main():
    cases = json.loads((HERE / "cases.json").read_text())
    schema = build_schema((HERE / "schema.graphql").read_text())
    expected = {case["name"]: asyncio.run(run(case, schema)) for case in cases}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
