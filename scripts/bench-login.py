#!/usr/bin/env python3
"""The login storm of `make bench` (scripts/bench.sh): figures, never verdicts.

CLIENTS young people log in at once over HTTP (the GraphQL `login` mutation, real Argon2id as the
server is configured), each LOGINS times in a row with their own correct password, so that no
name is ever locked out. Meanwhile a separate process sends a cheap authenticated query
(`query{me{id}}` with a bearer token) every 10 ms, one at a time (a light, steady other client); the same prober runs
before the storm too, for the quiet figures. Prints login latency p50/p90/p99 and the cheap
query's p50/p99 quiet and during the storm.

Loopback only (the base URL must be 127.0.0.1, localhost or [::1]); bounded in count (CLIENTS x
LOGINS logins, at most --probe-max queries per phase) and in time (--time-limit seconds per phase).

    scripts/bench-login.py --base http://127.0.0.1:18080 --tenant demo --users bench-yp- --clients 50 \\
        --logins 8 --password '...' --probe-user bench-probe --probe-password '...'
"""
import argparse
import http.client
import json
import multiprocessing
import sys
import threading
import time
import urllib.parse

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class Client:
    """One keep-alive HTTP/1.1 connection posting GraphQL requests."""

    def __init__(self, base, tenant, timeout=60):
        url = urllib.parse.urlsplit(base)
        if url.hostname not in LOOPBACK and not url.hostname.startswith("127."):
            raise SystemExit(f"bench-login: {base} is not a loopback address")
        self.host, self.port, self.timeout = url.hostname, url.port or 80, timeout
        self.path = f"/t/{tenant}/graphql"
        self.connection = None

    def post(self, query, variables=None, token=None):
        """The response's JSON; reconnects once if the server closed the connection."""
        body = json.dumps({"query": query, "variables": variables or {}})
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request("POST", self.path, body, headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("connection", "").lower() == "close":
                    self.close()
                return json.loads(data)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


LOGIN = "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"
ME = "query{me{id}}"


def login(client, username, password):
    """(token or None, error message or None)."""
    answer = client.post(LOGIN, {"u": username, "p": password})
    token = ((answer.get("data") or {}).get("login") or {}).get("token")
    errors = answer.get("errors") or []
    return token, (errors[0].get("message") if errors else None)


def percentile(samples, p):
    """Nearest-rank percentile of sorted `samples`."""
    if not samples:
        return float("nan")
    rank = max(1, -(-len(samples) * p // 100))  # ceil
    return samples[int(rank) - 1]


def probe(base, tenant, token, pause, max_count, time_limit, stop, results):
    """A separate process (its own interpreter lock): `me` queries one at a time until `stop` is
    set, `max_count` are done or `time_limit` passes; puts the latencies (ms) and failures."""
    client = Client(base, tenant)
    samples, failures = [], 0
    deadline = time.monotonic() + time_limit
    while not stop.is_set() and len(samples) < max_count and time.monotonic() < deadline:
        start = time.perf_counter()
        answer = client.post(ME, token=token)
        elapsed = (time.perf_counter() - start) * 1000
        if ((answer.get("data") or {}).get("me") or {}).get("id"):
            samples.append(elapsed)
        else:
            failures += 1
        time.sleep(pause)
    client.close()
    results.put((samples, failures))


def start_prober(args, token, stop, results, max_count):
    context = multiprocessing.get_context("spawn")
    process = context.Process(
        target=probe, args=(args.base, args.tenant, token, args.probe_pause_ms / 1000, max_count, args.time_limit, stop, results))
    process.start()
    return process


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:18080 (loopback only)")
    parser.add_argument("--tenant", default="demo")
    parser.add_argument("--users", required=True, help="usernames are this prefix and 1..CLIENTS")
    parser.add_argument("--password", required=True, help="every young person's password")
    parser.add_argument("--clients", type=int, default=50, help="concurrent logins (one young person each)")
    parser.add_argument("--logins", type=int, default=8, help="logins per client, one after another")
    parser.add_argument("--probe-user", required=True)
    parser.add_argument("--probe-password", required=True)
    parser.add_argument("--probe-pause-ms", type=float, default=10.0, help="pause between two cheap queries")
    parser.add_argument("--probe-max", type=int, default=3000, help="most cheap queries per phase")
    parser.add_argument("--quiet-probes", type=int, default=600, help="cheap queries without the storm")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per phase at most")
    parser.add_argument("--label", default="", help="said after the title, e.g. the Argon2 settings")
    args = parser.parse_args()

    setup = Client(args.base, args.tenant)
    token, error = login(setup, args.probe_user, args.probe_password)
    if not token:
        raise SystemExit(f"bench-login: the prober cannot log in as {args.probe_user}: {error}")
    for _ in range(50):  # warm-up: the document cache, the pool's connections, prepared statements
        setup.post(ME, token=token)
    setup.close()

    # The cheap query, quiet.
    stop, results = multiprocessing.get_context("spawn").Event(), multiprocessing.get_context("spawn").Queue()
    prober = start_prober(args, token, stop, results, args.quiet_probes)
    quiet, quiet_failures = results.get()
    prober.join()

    # The storm, with the prober beside it.
    clients = [Client(args.base, args.tenant) for _ in range(args.clients)]
    latencies, errors = [], []
    lock = threading.Lock()
    barrier = threading.Barrier(args.clients + 1)
    deadline_box = [0.0]

    def storm_client(index):
        client, username = clients[index], f"{args.users}{index + 1}"
        client.connection = http.client.HTTPConnection(client.host, client.port, timeout=client.timeout)
        client.connection.connect()
        barrier.wait()
        for _ in range(args.logins):
            if time.monotonic() > deadline_box[0]:
                break
            start = time.perf_counter()
            try:
                got, message = login(client, username, args.password)
            except Exception as exception:  # noqa: BLE001 - counted and reported, not raised
                got, message = None, repr(exception)
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                if got:
                    latencies.append(elapsed)
                else:
                    errors.append(message)
        client.close()

    threads = [threading.Thread(target=storm_client, args=(i,), daemon=True) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    stop = multiprocessing.get_context("spawn").Event()
    prober = start_prober(args, token, stop, results, args.probe_max)
    time.sleep(0.2)  # the prober's interpreter starts before the storm does
    deadline_box[0] = time.monotonic() + args.time_limit
    began = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - began
    stop.set()
    during, during_failures = results.get()
    prober.join()

    latencies.sort()
    quiet.sort()
    during.sort()
    label = f" ({args.label})" if args.label else ""
    print(f"Login storm{label}")
    print(f"  {len(latencies)} logins by {args.clients} concurrent clients in {took:.1f} s "
          f"({len(latencies) / took:.0f} logins/s), {len(errors)} failed"
          + (f", first failure: {errors[0]}" if errors else ""))
    print(f"  login latency: p50 {percentile(latencies, 50):.0f} ms, p90 {percentile(latencies, 90):.0f} ms, "
          f"p99 {percentile(latencies, 99):.0f} ms  (target: p90 < 1000 ms)")
    print(f"  query{{me{{id}}}} quiet:      p50 {percentile(quiet, 50):.2f} ms, p99 {percentile(quiet, 99):.2f} ms "
          f"({len(quiet)} queries, {quiet_failures} failed)")
    print(f"  query{{me{{id}}}} in the storm: p50 {percentile(during, 50):.2f} ms, p99 {percentile(during, 99):.2f} ms "
          f"({len(during)} queries, {during_failures} failed)")
    ratio = percentile(during, 99) / percentile(quiet, 99) if quiet and during else float("nan")
    print(f"  cheap query p99 in the storm / quiet: {ratio:.1f}x  (target: < 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
