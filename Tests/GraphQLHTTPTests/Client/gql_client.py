#!/usr/bin/env python3
"""A real GraphQL client against GraphQL over HTTP (the GraphQLHTTP target).

Runs a query, a mutation, an upload (the GraphQL multipart request specification) and a field
error with the PyPI `gql` client (its `requests` transport) against a live server, and exits
non-zero on the first difference. `Tests/GraphQLHTTPTests/GraphQLHTTPClientTests.swift`
starts a server with the test schema of `GraphQLHTTPTestSchema.swift` on a free loopback port
and runs this script with that URL:

    python3 Tests/GraphQLHTTPTests/Client/gql_client.py http://127.0.0.1:PORT/graphql

Needs `pip install "gql[requests]"` (`make test` installs it).
"""

import io
import sys

from gql import Client, FileVar, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport


def main(url: str) -> None:
    # Multipart requests must carry a header that a browser sends only after a CORS preflight.
    transport = RequestsHTTPTransport(url=url, headers={"GraphQL-Require-Preflight": "1"}, timeout=30)
    with Client(transport=transport) as session:
        result = session.execute(gql('query Hello($name: String!) { hello(name: $name) }'),
                                 variable_values={"name": "gql"})
        check("query", result, {"hello": "Hello, gql!"})

        result = session.execute(gql("mutation { addNote(text: \"first\") { id text } }"))
        check("mutation", result, {"addNote": {"id": "1", "text": "first"}})

        upload = gql("mutation Upload($file: Upload!) { upload(file: $file) { filename contentType size text } }")
        upload.variable_values = {
            "file": FileVar(io.BytesIO("hello, world ✓\n".encode()), filename="note.txt", content_type="text/plain")
        }
        result = session.execute(upload, upload_files=True)
        check("upload", result, {"upload": {
            "filename": "note.txt", "contentType": "text/plain", "size": 17, "text": "hello, world ✓\n",
        }})

        try:
            session.execute(gql("{ fail }"))
            fail("field error", "no error raised")
        except TransportQueryError as error:
            check("field error", error.errors[0]["message"], "boom")
            check("field error data", error.data, {"fail": None})
    print("gql client: query, mutation, upload and field error OK")


def check(what, actual, expected):
    if actual != expected:
        fail(what, f"expected {expected!r}, got {actual!r}")


def fail(what, message):
    print(f"gql client: {what}: {message}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
