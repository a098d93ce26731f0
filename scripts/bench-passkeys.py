#!/usr/bin/env python3
"""Passkey logins' figures of `make bench` (scripts/bench.sh): figures, never verdicts.

A young person registers a passkey with the tests' software authenticator
(Tests/StorykeepServerTests/Client/soft_authenticator.py, on PyPI's fido2), then logs in with it
--count times over HTTP, one after another, as an app would: `beginPasskeyLogin` (not measured),
the authenticator's signature (in this process, not measured), and `finishPasskeyLogin`, whose
round trip on loopback is measured on one kept-alive connection: an upper bound of the server's
time (its JSON, the challenge, the lockout's row, the ECDSA verification in libcrypto, the
session), and less the round trip of `{ __typename }` on the same connection, the server's own
time for a login. Beside it, a password
login's p50 (Argon2). Prints p50, p90 and p99 with the load average before and after (the
machine is shared: the figures mean little without it).

    scripts/bench-passkeys.py --base http://127.0.0.1:18080 --tenant demo --user bench-passkey --password '...' \
        --origin https://demo.storykeep.localhost
"""
import argparse
import http.client
import importlib.util
import json
import os
import statistics
import tempfile
import time
import urllib.parse

AUTHENTICATOR = os.path.join(os.path.dirname(__file__), "..", "Tests", "StorykeepServerTests", "Client", "soft_authenticator.py")


def load_authenticator():
    spec = importlib.util.spec_from_file_location("soft_authenticator", AUTHENTICATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Client:
    """One kept-alive HTTP connection to the GraphQL endpoint, as an app holds one: the round
    trip is then the server's time and the loopback's, without a TCP handshake or urllib's own
    set-up in every sample."""

    def __init__(self, url):
        self.parts = urllib.parse.urlparse(url)
        self.connection = http.client.HTTPConnection(self.parts.hostname, self.parts.port, timeout=60)

    def __call__(self, query, variables=None, token=None):
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        self.connection.request("POST", self.parts.path, json.dumps({"query": query, "variables": variables or {}}), headers)
        return json.loads(self.connection.getresponse().read())


def field(answer, name):
    value = (answer.get("data") or {}).get(name)
    if value is None:
        raise SystemExit(f"bench-passkeys: {name} failed: {answer}")
    return value


def percentile(samples, fraction):
    return samples[min(len(samples) - 1, int(len(samples) * fraction))]


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, (time.perf_counter() - start) * 1000


def server_cpu_ms(pid):
    """The CPU time the server process has used, in ms: the sum of its threads' schedstat (ns,
    exact, unlike the 10 ms ticks of /proc/PID/stat); 0 without a pid."""
    if not pid:
        return 0.0
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended between the listing and the read
    return total / 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--origin", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--server-pid", type=int, help="the server's pid, to report its CPU time per login")
    options = parser.parse_args()
    graphql = Client(f"{options.base}/t/{options.tenant}/graphql")
    authenticator = load_authenticator()
    login_query = "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"

    password_ms = []
    for _ in range(20):
        answer, ms = timed(lambda: graphql(login_query, {"u": options.user, "p": options.password}))
        password_ms.append(ms)
    token = field(answer, "login")["token"]

    state = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    creation = json.loads(field(graphql("mutation { beginPasskeyRegistration }", token=token), "beginPasskeyRegistration"))
    credential = authenticator.create(state, options.origin, creation, [])
    field(graphql("mutation($c: String!) { finishPasskeyRegistration(credential: $c, name: \"bench\") { id } }",
                  {"c": json.dumps(credential)}, token), "finishPasskeyRegistration")

    # The round trip of the cheapest request, to set beside finishPasskeyLogin's: what the
    # loopback, HTTP and this client take of every sample.
    floor_ms = sorted(timed(lambda: graphql("{ __typename }"))[1] for _ in range(300))

    begin_ms, finish_ms, finish_cpu_ms = [], [], 0.0
    load_before = os.getloadavg()
    for round in range(options.warmup + options.count):
        begun, begin = timed(lambda: graphql("mutation { beginPasskeyLogin }"))
        request = json.loads(field(begun, "beginPasskeyLogin"))
        assertion = json.dumps(authenticator.get(state, options.origin, request, []))
        cpu_before = server_cpu_ms(options.server_pid)
        finished, finish = timed(lambda: graphql("mutation($a: String!) { finishPasskeyLogin(assertion: $a) { token } }", {"a": assertion}))
        cpu = server_cpu_ms(options.server_pid) - cpu_before
        field(finished, "finishPasskeyLogin")
        if round >= options.warmup:
            begin_ms.append(begin)
            finish_ms.append(finish)
            finish_cpu_ms += cpu
    load_after = os.getloadavg()
    os.unlink(state)

    for samples in (begin_ms, finish_ms, password_ms):
        samples.sort()
    print(f"passkey login ({options.count} in a row, ES256; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after):")
    print(f"  finishPasskeyLogin: p50 {statistics.median(finish_ms):.2f} ms, p90 {percentile(finish_ms, 0.9):.2f} ms, "
          f"p99 {percentile(finish_ms, 0.99):.2f} ms (round trip on loopback)")
    if options.server_pid:
        # Server time that does not grow with the machine's load: the CPU the server spent on
        # the request (its Swift side; PostgreSQL's backend is not included).
        print(f"  finishPasskeyLogin: {finish_cpu_ms / options.count:.2f} ms of the server's CPU per login (mean)")
    print(f"  {{ __typename }} on the same connection: p50 {statistics.median(floor_ms):.2f} ms: finishPasskeyLogin's p50 "
          f"less it, the server's time for a login: {statistics.median(finish_ms) - statistics.median(floor_ms):.2f} ms")
    print(f"  beginPasskeyLogin:  p50 {statistics.median(begin_ms):.2f} ms, p99 {percentile(begin_ms, 0.99):.2f} ms")
    print(f"  password login (Argon2), for comparison: p50 {statistics.median(password_ms):.2f} ms over {len(password_ms)}")


if __name__ == "__main__":
    main()
