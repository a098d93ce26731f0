"""Schemathesis's hooks for Storykeep (scripts/schemathesis.sh loads them): what a hostile client's
answer must be, and a value for the one scalar schemathesis cannot make up.

Schemathesis's own `not_a_server_error` counts any GraphQL error with a `path` and a code it does
not know as the server's failure, so it takes FORBIDDEN or NOT_FOUND for a crash. Storykeep's
contract is narrower and stricter: every error carries `extensions.code`, and a client's input
never gets INTERNAL_SERVER_ERROR or a 5xx. `storykeep_answer` checks exactly that.
"""
import json

import schemathesis
from hypothesis import strategies as st
from schemathesis.graphql import nodes

# An `Upload` arrives as a file part of a multipart request; in a JSON body schemathesis can only
# send text where it is expected, which the server must refuse as the client's mistake.
schemathesis.graphql.scalar("Upload", st.text(max_size=20).map(nodes.String))


@schemathesis.check
def storykeep_answer(ctx, response, case):
    """No 5xx; a JSON answer; every GraphQL error with a code, none INTERNAL_SERVER_ERROR."""
    if response.status_code >= 500:
        raise AssertionError(f"HTTP {response.status_code}: {response.text[:500]}")
    try:
        answer = json.loads(response.content)
    except ValueError:
        raise AssertionError(f"HTTP {response.status_code} without a JSON answer: {response.text[:500]}")
    if response.status_code >= 400 and not answer.get("errors"):
        raise AssertionError(f"HTTP {response.status_code} without errors: {response.text[:500]}")
    for error in answer.get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        if not code or code == "INTERNAL_SERVER_ERROR":
            raise AssertionError(f"an error with code {code!r}: {json.dumps(error)[:500]}")
