#!/usr/bin/env python3
"""Differential oracle: records what graphql-core 3.3.2 (the Python port of graphql-js) answers
for every case of a corpus, so that the Swift tests can check the engine answers the same.

Usage (from the repository root):

    python3 -m venv /tmp/gql-oracle && /tmp/gql-oracle/bin/pip install graphql-core==3.3.2
    /tmp/gql-oracle/bin/python Tests/GraphQLTests/Corpus/oracle.py syntax

Each subcommand regenerates one corpus folder next to this script; run it after adding or
changing a case and commit the recorded files with the cases. Subcommands:

  syntax   Corpus/syntax/: parsing and printing.
           - every `NAME.graphql` is a document; its answer goes to `NAME.expected.json`;
           - `cases.json` is a list of small cases `{"name", "source", "kind"?, "options"?}`
             (kind: document (default), value, constValue or type; options: maxTokens,
             noLocation); the answers go to `cases.expected.json`, keyed by name.
           An answer is `{"printed": print_ast(result)}` or, for a syntax error,
           `{"error": {"message", "line", "column"}}`.

How answers are normalised so that they compare with graphql-js (and so with our engine):
  - graphql-core quotes with ' where graphql-js quotes with "; messages have every ' replaced
    by " (the Swift test applies the same replacement to our messages before comparing);
  - graphql-core counts columns in code points, graphql-js in UTF-16 code units; columns are
    converted to UTF-16 code units;
  - `maxTokens` is graphql-js's option, which does not count comments: graphql-core's
    `max_lexical_tokens`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import graphql
from graphql import GraphQLError, parse, parse_const_value, parse_type, parse_value, print_ast

HERE = Path(__file__).resolve().parent
EXPECTED_VERSION = "3.3.2"


def normalise_message(message: str) -> str:
    return message.replace("'", '"')


def utf16_column(body: str, position: int, column: int) -> int:
    """The column of `position` counted in UTF-16 code units, from graphql-core's column."""
    line_start = position - (column - 1)
    return 1 + len(body[line_start:position].encode("utf-16-le")) // 2


def answer(body: str, kind: str = "document", options: dict | None = None) -> dict:
    options = options or {}
    keywords = {"no_location": bool(options.get("noLocation", False))}
    if "maxTokens" in options:
        keywords["max_lexical_tokens"] = options["maxTokens"]
    parser = {
        "document": parse,
        "value": parse_value,
        "constValue": parse_const_value,
        "type": parse_type,
    }[kind]
    try:
        node = parser(body, **keywords)
    except GraphQLError as error:
        location = error.locations[0]
        column = location.column
        if error.positions:
            column = utf16_column(body, error.positions[0], location.column)
        return {
            "error": {
                "message": normalise_message(error.message),
                "line": location.line,
                "column": column,
            }
        }
    printed = print_ast(node)
    if kind == "document":
        # The printer's own promise: printing is stable.
        assert print_ast(parse(printed)) == printed, f"print is not stable for {body!r}"
    return {"printed": printed}


def write_json(path: Path, value) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def syntax() -> None:
    folder = HERE / "syntax"
    count = 0
    for document in sorted(folder.glob("*.graphql")):
        body = document.read_bytes().decode("utf-8")
        write_json(document.with_name(document.stem + ".expected.json"), answer(body))
        count += 1
    cases = json.loads((folder / "cases.json").read_text(encoding="utf-8"))
    names = [case["name"] for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        sys.exit(f"duplicate case names: {sorted(duplicates)}")
    answers = {
        case["name"]: answer(case["source"], case.get("kind", "document"), case.get("options"))
        for case in cases
    }
    write_json(folder / "cases.expected.json", answers)
    count += len(cases)
    print(f"syntax: recorded {count} answers")


COMMANDS = {"syntax": syntax}


def main() -> None:
    if graphql.__version__ != EXPECTED_VERSION:
        sys.exit(f"graphql-core {EXPECTED_VERSION} is the oracle, found {graphql.__version__}")
    if len(sys.argv) != 2 or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: oracle.py {{{','.join(COMMANDS)}}}")
    COMMANDS[sys.argv[1]]()


if __name__ == "__main__":
    main()
