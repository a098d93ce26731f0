#!/usr/bin/env python3
"""A GraphQL over Server-Sent Events client (the graphql-sse protocol's distinct connections
mode), with the PyPI `requests` streaming a POST, for LiveSocketTests.swift:

    python3 sse_client.py URL TOKEN QUERY COUNT SECONDS

POSTs QUERY to URL (http://HOST:PORT/t/<slug>/graphql) with `Accept: text/event-stream` and
`Authorization: Bearer TOKEN`, and prints, one line each:

- `next <json>` for each `next` event (the response, keys sorted), stopping after COUNT of them;
- `complete` for the `complete` event, which ends the stream;
- `status <code> <body>` when the server answers with something else than an event stream;
- `nothing` when SECONDS pass without an event.
"""

import json
import sys

import requests


def main(url, token, query, count, seconds):
    headers = {"Accept": "text/event-stream", "Authorization": f"Bearer {token}"}
    try:
        with requests.post(url, json={"query": query}, headers=headers, stream=True, timeout=(10, seconds)) as response:
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                print("status", response.status_code, response.text, flush=True)
                return
            received = 0
            event = None
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    event = line[len("event: "):]
                elif line.startswith("data:") and event == "next":
                    print("next", json.dumps(json.loads(line[len("data:"):]), sort_keys=True), flush=True)
                    received += 1
                    if received >= count:
                        return
                elif line.startswith("data:") and event == "complete":
                    print("complete", flush=True)
                    return
    except requests.exceptions.ConnectionError as error:
        if "timed out" not in str(error).lower():
            raise
        print("nothing", flush=True)


if __name__ == "__main__":
    url, token, query, count, seconds = sys.argv[1:6]
    main(url, token, query, int(count), float(seconds))
