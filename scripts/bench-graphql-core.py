#!/usr/bin/env python3
"""Times graphql-core (pip install graphql-core==3.3.2) the way `storykeep gql bench` times our
engine, and prints the same JSON object of median microseconds per operation:
parse_us, validate_us, execute_us, all_us (parse + validate + execute + json.dumps) and
cached_us (a dict of parsed, validated documents standing in for a document cache, then
execute + json.dumps). A document that does not validate is timed for parsing alone.

    scripts/bench-graphql-core.py --schema S.graphql --query Q.graphql [--root R.json]
        [--variables JSON] [--operation-name NAME] [--seconds N]
"""

import argparse
import json
import statistics
import time

from graphql import GraphQLError, build_schema, execute, parse, validate


def median_us(budget, body):
    """Median of samples, each a batch of runs lasting about a millisecond."""
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.02 or runs < 3:
        body()
        runs += 1
    batch = max(1, int(0.001 / ((time.perf_counter() - start) / runs)))
    samples, start = [], time.perf_counter()
    while time.perf_counter() - start < budget or len(samples) < 5:
        began = time.perf_counter()
        for _ in range(batch):
            body()
        samples.append((time.perf_counter() - began) / batch * 1e6)
    return round(statistics.median(samples), 1)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--schema", action="append", required=True)
    arguments.add_argument("--query", required=True)
    arguments.add_argument("--root")
    arguments.add_argument("--variables")
    arguments.add_argument("--operation-name")
    arguments.add_argument("--seconds", type=float, default=1.0)
    options = arguments.parse_args()

    schema = build_schema("\n".join(open(path).read() for path in options.schema))
    text = open(options.query).read()
    root = json.load(open(options.root)) if options.root else {}
    variables = json.loads(options.variables) if options.variables else None
    name = options.operation_name

    figures = {"parse_us": median_us(options.seconds, lambda: parse(text))}
    try:
        document = parse(text)
        valid = not validate(schema, document)
    except GraphQLError:
        valid = False
    if not valid:
        figures.update(validate_us=None, execute_us=None, all_us=None, cached_us=None)
    else:
        def run(document):
            result = execute(schema, document, root, variable_values=variables, operation_name=name)
            return json.dumps(result.formatted, separators=(",", ":"), ensure_ascii=False)

        def everything():
            document = parse(text)
            if not validate(schema, document):
                run(document)

        cache = {text: document}
        figures["validate_us"] = median_us(options.seconds, lambda: validate(schema, document))
        figures["execute_us"] = median_us(
            options.seconds, lambda: execute(schema, document, root, variable_values=variables, operation_name=name)
        )
        figures["all_us"] = median_us(options.seconds, everything)
        figures["cached_us"] = median_us(options.seconds, lambda: run(cache[text]))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
