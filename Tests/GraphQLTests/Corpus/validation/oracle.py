#!/usr/bin/env python3
"""Records graphql-core's validation errors for the validation corpus.

The corpus: `schema.graphql` (the schema every case is validated against) and `cases/*.graphql`,
each holding several cases, every one headed by a line `### name` (optionally followed by
`[hide-suggestions]`) and running to the next header. For each case this script runs
graphql-core 3.3.2's `validate` with `specified_rules` and writes the errors to
`expected/<file>.json`: case name -> list of {"message", "locations": [[line, column], ...]}.

graphql-core differs from graphql-js in spelling, and the messages are recorded with
graphql-js's: it quotes names with ' where graphql-js writes " (so case documents must not
contain the character '), says None where graphql-js says null, and names directive locations
in words ("variable definition") where graphql-js writes the constant (VARIABLE_DEFINITION).
(graphql-core copies a list or object literal before a scalar coerces it, so a scalar's error
about such a literal has no location, where graphql-js 17's copy keeps the literal's; the type
system follows graphql-core there, and so does this corpus.)

Regenerate (from the repository root):
    pip install graphql-core==3.3.2
    python3 Tests/GraphQLTests/Corpus/validation/oracle.py

The Swift test (ValidationCorpusTests.swift) splits the files the same way and compares.
"""

import json
import pathlib
import re
import sys

import graphql
from graphql import build_schema, parse, validate

HERE = pathlib.Path(__file__).resolve().parent


def split_cases(text):
    """Yield (name, flags, document) for each `### name [flags]` section."""
    cases = []
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("### "):
            header = line[4:].strip()
            match = re.fullmatch(r"(\S+)(?:\s+\[([^\]]*)\])?", header)
            if not match:
                sys.exit(f"bad case header: {line!r}")
            current = [match.group(1), (match.group(2) or "").split(), ""]
            cases.append(current)
        elif current is not None:
            current[2] += line
    return [(name, flags, document) for name, flags, document in cases]


def normalise(message):
    message = message.replace("'", '"')
    message = re.sub(r"not to be None\.", "not to be null.", message)
    return re.sub(
        r"(may not be used on )([a-z ]+)\.$",
        lambda match: match.group(1) + match.group(2).upper().replace(" ", "_") + ".",
        message,
    )


def main():
    if graphql.__version__ != "3.3.2":
        sys.exit(f"graphql-core 3.3.2 expected, found {graphql.__version__}")
    schema = build_schema((HERE / "schema.graphql").read_text())
    (HERE / "expected").mkdir(exist_ok=True)
    for path in sorted((HERE / "cases").glob("*.graphql")):
        results = {}
        for name, flags, document in split_cases(path.read_text()):
            if name in results:
                sys.exit(f"{path.name}: duplicate case {name}")
            if "'" in document:
                sys.exit(f"{path.name} {name}: documents must not contain '")
            errors = validate(schema, parse(document), hide_suggestions="hide-suggestions" in flags)
            results[name] = [
                {
                    "message": normalise(error.message),
                    "locations": [[loc.line, loc.column] for loc in error.locations or []],
                }
                for error in errors
            ]
        out = HERE / "expected" / (path.stem + ".json")
        out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
        print(f"{path.name}: {len(results)} cases")


if __name__ == "__main__":
    main()
