#!/usr/bin/env python3
"""The cached feed request against a server with metrics and tracing on and one with them off
(scripts/bench-observability.sh starts both): interleaved rounds, each server's median, and the
extra the "on" server takes. Prints figures, decides nothing.

    python3 bench-observability.py --on URL --off URL --tenant SLUG --user NAME --password P \
        [--rounds 20] [--requests 200]
"""

import argparse, http.client, json, os, statistics, time, urllib.parse

FEED = "query Feed { entries(first: 20) { edges { node { id date kind text mood } } } }"


class Server:
    """One server's GraphQL endpoint over one kept-alive connection."""

    def __init__(self, base, tenant):
        url = urllib.parse.urlparse(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        self.path = f"/t/{tenant}/graphql"
        self.token = None

    def post(self, query, variables=None):
        body = json.dumps({"query": query, "variables": variables or {}})
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request("POST", self.path, body, headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200 or "errors" in answer:
            raise SystemExit(f"bench-observability: {response.status} {answer}")
        return answer

    def timed_feed(self):
        start = time.perf_counter()
        self.post(FEED)
        return (time.perf_counter() - start) * 1000


def main():
    parser = argparse.ArgumentParser()
    for name in ("--on", "--off", "--tenant", "--user", "--password"):
        parser.add_argument(name, required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    servers = {"on": Server(args.on, args.tenant), "off": Server(args.off, args.tenant)}
    login = "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"
    token = servers["on"].post(login, {"u": args.user, "p": args.password})["data"]["login"]["token"]
    writer = servers["on"]
    writer.token = token
    for day in range(20):  # a feed of 20 entries
        writer.post("mutation($i: EntryInput!) { createEntry(input: $i) { id } }",
                    {"i": {"date": f"2026-10-{day + 1:02d}", "kind": "TEXT", "text": f"Bench feed entry {day}"}})
    for server in servers.values():
        server.token = token
        for _ in range(100):  # warm: the document cache, the connections, the statement caches
            server.timed_feed()

    samples = {"on": [], "off": []}
    round_medians = {"on": [], "off": []}
    for number in range(args.rounds):
        order = ["on", "off"] if number % 2 == 0 else ["off", "on"]
        for name in order:
            times = [servers[name].timed_feed() for _ in range(args.requests)]
            samples[name] += times
            round_medians[name].append(statistics.median(times))

    on, off = statistics.median(samples["on"]), statistics.median(samples["off"])
    paired = statistics.median(a / b - 1 for a, b in zip(round_medians["on"], round_medians["off"])) * 100
    for name in ("on", "off"):
        ordered = sorted(samples[name])
        print(f"  {name:3}: {len(ordered)} requests, p50 {statistics.median(ordered):.3f} ms, "
              f"p90 {ordered[int(len(ordered) * 0.9) - 1]:.3f} ms, p99 {ordered[int(len(ordered) * 0.99) - 1]:.3f} ms")
    print(f"  extra with metrics and tracing: {(on / off - 1) * 100:+.1f} % of the median "
          f"({on - off:+.3f} ms); median of the {args.rounds} rounds' ratios {paired:+.1f} % (target < 5 %)")
    print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine makes these noisy)")


if __name__ == "__main__":
    main()
