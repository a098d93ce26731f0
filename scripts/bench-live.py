#!/usr/bin/env python3
"""Live updates at scale (issue 15): WORKERS social workers, each on a WebSocket of their own
(graphql-transport-ws, subscribed to `safetyAlertChanged`), all assigned to one young person (the
team's) and each to a young person of their own.

- The team's alerts: ROUNDS alerts of the team's young person, one after another, each reaching
  every worker. For each alert and worker: the time from the mutation's answer (its transaction
  has committed by then) to that worker's `next`, and from the moment the mutation was sent.
- Own alerts: OWN alerts, each of one worker's own young person, one after another: the time to
  that worker's `next`, and how many others were sent it (none may be). Every subscriber of the
  agency reads each alert again under its own row-level security, so each costs WORKERS reads.

And the server's memory per connection: its RSS before the connections and after they all
subscribed, the difference divided by their number.

    python3 bench-live.py BASE SLUG SERVER_PID WORKERS ROUNDS OWN

People and sessions are written with one psql script as the app role (DATABASE_URL), through
row-level security like any request: the people and assignments as the tenant's operator, each
session in its person's own context, the token's SHA-256 as the server stores it. No Argon2.
"""

import asyncio
import base64
import hashlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid

import websockets

BASE, SLUG, SERVER_PID, WORKERS, ROUNDS, OWN = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
QUERY = "subscription { safetyAlertChanged { id status } }"


def psql(script):
    return subprocess.run(
        [os.environ.get("PSQL", "psql"), os.environ["DATABASE_URL"], "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"],
        input=script, text=True, capture_output=True, check=True).stdout


def context(tenant, person, role):
    return (f"select set_config('storykeep.tenant_id', '{tenant}', true), set_config('storykeep.person_id', '{person}', true),"
            f" set_config('storykeep.role', '{role}', true), set_config('storykeep.login_name', '', true),"
            f" set_config('storykeep.secret_hash', '', true);\n")


def token():
    text = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    return text, hashlib.sha256(text.encode()).hexdigest()


def seed():
    """The team's young person, the workers and their own young people, each with a session:
    the team's young person's token, the workers' and their own young people's."""
    tenant = psql(f"select tenant_id from tenants where slug = '{SLUG}'").strip()
    run = uuid.uuid4().hex[:8]
    young = str(uuid.uuid4())
    workers = [str(uuid.uuid4()) for _ in range(WORKERS)]
    own = [str(uuid.uuid4()) for _ in range(WORKERS)]
    values = lambda rows: ",\n".join(rows) + ";\n"
    lines = ["begin;\n", context(tenant, "", "AGENCY_ADMIN"),
             "insert into people (tenant_id, id, role, username, display_name) values\n"
             + values([f"('{tenant}', '{young}', 'YOUNG_PERSON', 'yp-{run}', 'Team Young Person')"]
                      + [f"('{tenant}', '{y}', 'YOUNG_PERSON', 'yp{i}-{run}', 'Young Person {i}')" for i, y in enumerate(own)]),
             "insert into people (tenant_id, id, role, email, display_name) values\n"
             + values([f"('{tenant}', '{w}', 'SOCIAL_WORKER', 'sw{i}-{run}@bench.example', 'Worker {i}')" for i, w in enumerate(workers)]),
             "insert into assignments (tenant_id, young_person_id, adult_id, relationship) values\n"
             + values([f"('{tenant}', '{young}', '{w}', 'SOCIAL_WORKER')" for w in workers]
                      + [f"('{tenant}', '{y}', '{w}', 'SOCIAL_WORKER')" for y, w in zip(own, workers)])]
    tokens = {}
    for person, role in [(young, "YOUNG_PERSON")] + [(w, "SOCIAL_WORKER") for w in workers] + [(y, "YOUNG_PERSON") for y in own]:
        text, digest = token()
        tokens[person] = text
        lines.append(context(tenant, person, role))
        lines.append(f"insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at) values "
                     f"('{tenant}', '{person}', '\\x{digest}', now() + interval '1 day', now() + interval '1 day');\n")
    lines.append("commit;\n")
    psql("".join(lines))
    return tokens[young], [tokens[w] for w in workers], [tokens[y] for y in own]


def rss_kib():
    with open(f"/proc/{SERVER_PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def raise_alert(young_token):
    request = urllib.request.Request(
        f"{BASE}/t/{SLUG}/graphql", method="POST",
        data=json.dumps({"query": "mutation { raiseSafetyAlert(message: \"bench\") { id } }"}).encode(),
        headers={"content-type": "application/json", "authorization": f"Bearer {young_token}"})
    sent = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        body = json.loads(response.read())
    answered = time.perf_counter()
    return body["data"]["raiseSafetyAlert"]["id"], sent, answered


class Subscriber:
    def __init__(self, worker_token):
        self.token = worker_token
        self.received = {}  # alert id -> perf_counter at its next

    async def open(self, url):
        self.socket = await websockets.connect(url, subprotocols=["graphql-transport-ws"], max_size=2**20, open_timeout=60, ping_interval=None)
        await self.socket.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {self.token}"}}))
        assert json.loads(await self.socket.recv())["type"] == "connection_ack"
        await self.socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": QUERY}}))
        # The server handles a connection's messages in order: its pong says the subscribe was taken.
        await self.socket.send(json.dumps({"type": "ping"}))
        while json.loads(await self.socket.recv())["type"] != "pong":
            pass

    async def read(self):
        async for text in self.socket:
            message = json.loads(text)
            if message.get("type") == "next":
                alert = ((message["payload"].get("data") or {}).get("safetyAlertChanged") or {}).get("id")
                if alert:
                    self.received.setdefault(alert, time.perf_counter())


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered))) - 1))]


async def wait_for(alert, subscribers):
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and any(alert not in s.received for s in subscribers):
        await asyncio.sleep(0.005)


def figures(name, samples):
    if samples:
        print(f"  {name}: p50 {statistics.median(samples):.0f} ms, p99 {percentile(samples, 99):.0f} ms, max {max(samples):.0f} ms")


async def main():
    started = time.perf_counter()
    young_token, worker_tokens, own_tokens = seed()
    print(f"  seeded {WORKERS} workers, {WORKERS + 1} young people and their sessions through SQL in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    url = BASE.replace("http://", "ws://") + f"/t/{SLUG}/graphql"
    before = rss_kib()
    subscribers = [Subscriber(t) for t in worker_tokens]
    started = time.perf_counter()
    gate = asyncio.Semaphore(50)

    async def opened(subscriber):
        async with gate:
            await subscriber.open(url)

    await asyncio.gather(*(opened(s) for s in subscribers))
    print(f"  {WORKERS} connections subscribed in {time.perf_counter() - started:.1f} s", flush=True)
    await asyncio.sleep(1)
    after = rss_kib()
    readers = [asyncio.create_task(s.read()) for s in subscribers]
    loop = asyncio.get_running_loop()

    from_commit, from_send, missing = [], [], 0
    for _ in range(ROUNDS):
        alert, sent, answered = await loop.run_in_executor(None, raise_alert, young_token)
        await wait_for(alert, subscribers)
        for s in subscribers:
            if alert in s.received:
                from_commit.append((s.received[alert] - answered) * 1000)
                from_send.append((s.received[alert] - sent) * 1000)
            else:
                missing += 1
        await asyncio.sleep(0.5)
    print(f"  the team's alerts: {ROUNDS} x {WORKERS} subscribers, {len(from_commit)} nexts received, {missing} missing after 30 s")
    figures("from the mutation's answer (committed) to each next", from_commit)
    figures("from the mutation's sending to each next           ", from_send)

    own_commit, others, missing = [], 0, 0
    for index in random.Random(1).sample(range(WORKERS), min(OWN, WORKERS)):
        alert, sent, answered = await loop.run_in_executor(None, raise_alert, own_tokens[index])
        await wait_for(alert, [subscribers[index]])
        if alert in subscribers[index].received:
            own_commit.append((subscribers[index].received[alert] - answered) * 1000)
        else:
            missing += 1
        await asyncio.sleep(0.2)
        others += sum(1 for i, s in enumerate(subscribers) if i != index and alert in s.received)
    print(f"  own alerts: {len(own_commit)} of {min(OWN, WORKERS)} reached their worker ({missing} missing), "
          f"{others} reached anyone else; each read again by all {WORKERS} subscribers")
    figures("from the mutation's answer (committed) to the worker's next", own_commit)

    for task in readers:
        task.cancel()
    await asyncio.gather(*(s.socket.close() for s in subscribers), return_exceptions=True)
    print(f"  server RSS {before / 1024:.1f} MiB before the connections, {after / 1024:.1f} MiB after: "
          f"{(after - before) / WORKERS:.1f} KiB per subscribed connection")


asyncio.run(main())
