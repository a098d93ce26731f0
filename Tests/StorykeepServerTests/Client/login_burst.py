"""Logs in many times at once, as a burst from one or many clients would.

    python3 login_burst.py <graphql url> <attempts.json>

attempts.json is a list of {"username", "password", "forwardedFor" (optional: sent as
X-Forwarded-For)}. All are sent concurrently (one thread and connection each); prints a JSON
list, in the same order, of each answer's outcome: "ok", or the first error's code, with its
retryAfterSeconds when it has one ("RATE_LIMITED 42").
"""

import json
import sys
import threading
import urllib.request

QUERY = "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"


def attempt(url, a, start):
    headers = {"content-type": "application/json"}
    if a.get("forwardedFor"):
        headers["x-forwarded-for"] = a["forwardedFor"]
    body = json.dumps({"query": QUERY, "variables": {"u": a["username"], "p": a["password"]}}).encode()
    start.wait()
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=120) as response:
        answer = json.load(response)
    errors = answer.get("errors")
    if not errors:
        return "ok"
    extensions = errors[0].get("extensions", {})
    wait = extensions.get("retryAfterSeconds")
    return extensions.get("code", "?") + (" %d" % wait if wait is not None and extensions.get("code") == "RATE_LIMITED" else "")


def main():
    url = sys.argv[1]
    with open(sys.argv[2]) as f:
        attempts = json.load(f)
    outcomes = [None] * len(attempts)
    start = threading.Barrier(len(attempts))

    def run(i):
        try:
            outcomes[i] = attempt(url, attempts[i], start)
        except Exception as error:  # a transport failure shows in the outcome
            outcomes[i] = "failed %r" % error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps(outcomes))


main()
