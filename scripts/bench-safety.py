#!/usr/bin/env python3
"""The safety alert's figures of `make bench` (scripts/bench.sh): figures, never verdicts.

A young person with five social workers assigned raises alerts with `raiseSafetyAlert`, one
after another over HTTP, as an app would: each request writes the alert and tells the five
workers (one notification statement) in a transaction of its own. The script prints the
latency's p50, p90 and p99 and the rate, with the load average before and after (the machine
is shared: the figures mean little without it).

The people are made beforehand (scripts/bench.sh, with `storykeep user create`); the script logs
them in and assigns the workers as the agency admin, then raises --warmup alerts unmeasured and
--count measured. Loopback only.

    scripts/bench-safety.py --base http://127.0.0.1:18080 --tenant demo --admin a@x --young bench-yp \
        --workers w1@x,w2@x,... --password '...'
"""
import argparse
import json
import os
import statistics
import time
import urllib.parse
import urllib.request

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def graphql(url, query, variables=None, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    with urllib.request.urlopen(urllib.request.Request(url, body, headers)) as response:
        return json.load(response)


def login(url, name, password):
    answer = graphql(url, "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token person { id } } }",
                     {"u": name, "p": password})
    login = (answer.get("data") or {}).get("login")
    if not login:
        raise SystemExit(f"bench-safety: cannot log in as {name}: {answer}")
    return login["token"], login["person"]["id"]


def percentile(samples, fraction):
    return samples[min(len(samples) - 1, int(len(samples) * fraction))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--admin", required=True)
    parser.add_argument("--young", required=True)
    parser.add_argument("--workers", required=True, help="comma-separated emails")
    parser.add_argument("--password", required=True)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    options = parser.parse_args()
    if urllib.parse.urlparse(options.base).hostname not in LOOPBACK:
        raise SystemExit("bench-safety: loopback only")
    url = f"{options.base}/t/{options.tenant}/graphql"

    admin, _ = login(url, options.admin, options.password)
    young, young_id = login(url, options.young, options.password)
    workers = options.workers.split(",")
    for email in workers:
        worker, worker_id = login(url, email, options.password)
        answer = graphql(url, "mutation($y: ID!, $a: ID!) { assignAdult(youngPersonId: $y, adultId: $a, relationship: SOCIAL_WORKER) { id } }",
                         {"y": young_id, "a": worker_id}, admin)
        if answer.get("errors") and (answer["errors"][0].get("extensions") or {}).get("field") != "adultId":
            raise SystemExit(f"bench-safety: cannot assign {email}: {answer}")

    raise_alert = "mutation($m: String) { raiseSafetyAlert(message: $m) { id } }"
    load_before = os.getloadavg()
    samples = []
    for index in range(options.warmup + options.count):
        started = time.perf_counter()
        answer = graphql(url, raise_alert, {"m": f"Bench alert {index}"}, young)
        elapsed = (time.perf_counter() - started) * 1000
        if answer.get("errors"):
            raise SystemExit(f"bench-safety: raiseSafetyAlert failed: {answer}")
        if index >= options.warmup:
            samples.append(elapsed)
    load_after = os.getloadavg()
    # Each worker was told of every alert.
    told = graphql(url, "{ unreadNotificationCount }", token=login(url, workers[0], options.password)[0])
    samples.sort()
    print(f"raising an alert to {len(workers)} workers: {options.count} sequential requests, "
          f"p50 {statistics.median(samples):.2f} ms, p90 {percentile(samples, 0.90):.2f} ms, "
          f"p99 {percentile(samples, 0.99):.2f} ms, {options.count / (sum(samples) / 1000):.0f} alerts/s; "
          f"a worker's unread notifications: {told['data']['unreadNotificationCount']}; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
