#!/usr/bin/env python3
"""A real graphql-ws client: the PyPI `gql` client's WebSocket transport (subprotocol
graphql-transport-ws) subscribing to a Storykeep server, for LiveSocketTests.swift.

    python3 live_client.py URL TOKEN QUERY COUNT SECONDS

Connects to URL (ws://HOST:PORT/t/<slug>/graphql) with `{"authorization": "Bearer TOKEN"}` as
connection_init's payload (TOKEN "-" sends an empty payload), subscribes with QUERY and prints,
one line each:

- `result <json>` for each result received, stopping after COUNT of them;
- `nothing` when SECONDS pass without the COUNT results;
- `closed <code>` when the server closes the connection (4403: the session ended, ...);
- `error <message>` for a GraphQL error the server answered the subscription with.

The test drives the rest: it waits until the server counts the subscription, makes something
happen over HTTP, and reads what this client printed. Needs `pip install "gql[websockets]"`
(`make test` installs it).
"""

import asyncio
import json
import sys

from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.websockets import WebsocketsTransport


def close_code(error):
    """The WebSocket close code somewhere in an exception's chain, if any."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        received = getattr(error, "rcvd", None)
        if received is not None:
            return received.code
        error = error.__cause__ or error.__context__
    return None


async def main(url, token, query, count, seconds):
    payload = {} if token == "-" else {"authorization": f"Bearer {token}"}
    transport = WebsocketsTransport(url=url, init_payload=payload, connect_timeout=10, ack_timeout=10)
    received = 0
    try:
        async with Client(transport=transport, fetch_schema_from_transport=False) as session:
            async def results():
                nonlocal received
                async for result in session.subscribe(gql(query)):
                    print("result", json.dumps(result, sort_keys=True), flush=True)
                    received += 1
                    if received >= count:
                        return
            try:
                await asyncio.wait_for(results(), timeout=seconds)
            except asyncio.TimeoutError:
                print("nothing", flush=True)
    except TransportQueryError as error:
        print("error", str(error), flush=True)
    except Exception as error:
        code = close_code(error)
        if code is None:
            raise
        print("closed", code, flush=True)


if __name__ == "__main__":
    url, token, query, count, seconds = sys.argv[1:6]
    asyncio.run(main(url, token, query, int(count), float(seconds)))
