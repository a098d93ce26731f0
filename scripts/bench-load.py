"""The mixed load (issue 18), for scripts/bench-load.sh (which seeds the database, starts the server
and runs pgbench beside it): N kept-alive HTTP connections, each a closed loop of GraphQL requests
drawn from the mix below, as young people and social workers of the seeded tenants; per operation
the requests per second, p50 and p99, and the errors; the server's RSS; the load average.

  bench-load.py BASE PREFIX TENANTS PASSWORD SERVER_PID mixed LEVELS SECONDS
      the mix at each concurrency of LEVELS (comma-separated), SECONDS each after a warm-up
  bench-load.py BASE PREFIX TENANTS PASSWORD SERVER_PID journal-requests FILE
      logs in as heavy of PREFIX-1 (the person pgbench reads as) and writes FILE, the journal's
      first page as a request of scripts/bench-requestpath.lua (`SLUG TOKEN BODY`), for wrk: a
      client in C, as pgbench is, so that the ratio measures the server and not this script
  bench-load.py BASE PREFIX TENANTS PASSWORD SERVER_PID soak LEVEL SECONDS WINDOW
      the mix at LEVEL for SECONDS, a line of p99 and RSS every WINDOW seconds, then the first
      window's and the last's side by side

BENCH_PSQL is the command line of a superuser psql on the bench cluster (to find the seeded
people). Every answer must be HTTP 200 without GraphQL errors; anything else is counted as an
error of its operation and shown.
"""
import asyncio, json, os, random, shlex, subprocess, sys, time

FIRST_PAGE = "query FirstPage { entries(first: 20) { edges { cursor node { id date kind text mood background createdAt tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }"
SEARCH = "query Search($q: String!) { search(query: $q, first: 20) { edges { node { id date kind text tags { id name } } } pageInfo { hasNextPage endCursor } } }"
MONTH = "query Month($month: String!) { calendar(month: $month) { date entryCount moods } }"
CREATE = "mutation Write($i: EntryInput!) { createEntry(input: $i) { id date kind text } }"
LOGIN = "mutation Login($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"
SHARED = "query Shared($y: ID!) { sharedWithMe(youngPersonId: $y, first: 20) { edges { node { id message sharedAt seenAt entry { id date kind text mood tags { id name } media { id contentType byteSize url } } } } pageInfo { hasNextPage endCursor } } }"
CASELOAD = "query { myYoungPeople { youngPerson { id } } }"

# The mix: an app's requests are mostly reads of the journal; a login is rare (a session lasts
# days) and costs an Argon2 hash.
MIX = [("journal", 35), ("search", 12), ("calendar", 12), ("createEntry", 12), ("shared", 25), ("login", 4)]
MONTH_OF_SEED = "2026-10"     # the seed's last month (--until 2026-10-31)
WORDS = ["football", "school", "friends", "music", "dog", "happy"]

base, prefix, tenant_count, password, server_pid, mode = sys.argv[1:7]
host, port = base.removeprefix("http://").split(":")
psql = shlex.split(os.environ["BENCH_PSQL"])


def sql(text):
    return subprocess.run(psql + ["-X", "-A", "-t", "-q", "-F", "|", "-c", text], check=True, capture_output=True, text=True).stdout.split()


def rss_mb():
    with open(f"/proc/{server_pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


class Connection:
    """One kept-alive HTTP/1.1 connection; `post` answers (status, decoded body)."""

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(host, int(port))
        return self

    async def post(self, slug, query, variables, token=None):
        body = json.dumps({"query": query, "variables": variables}).encode()
        head = f"POST /t/{slug}/graphql HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status_line = await self.reader.readline()
        length, chunked = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding" and "chunked" in value:
                chunked = True
        if chunked:
            data = b""
            while (size := int((await self.reader.readline()).strip(), 16)) > 0:
                data += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        else:
            data = await self.reader.readexactly(length)
        return int(status_line.split()[1]), json.loads(data or b"{}")


async def login(connection, slug, name):
    status, answer = await connection.post(slug, LOGIN, {"u": name, "p": password})
    token = ((answer.get("data") or {}).get("login") or {}).get("token")
    if not token:
        sys.exit(f"load bench: login as {name} in {slug} failed: HTTP {status} {answer}")
    return token


class Actor:
    """What one connection does: a young person's requests and a social worker's."""

    def __init__(self, slug, young, worker, worker_token, young_token, shared_person):
        self.slug, self.young, self.worker = slug, young, worker
        self.worker_token, self.young_token, self.shared_person = worker_token, young_token, shared_person

    def request(self, operation, rng):
        if operation == "journal":
            return FIRST_PAGE, {}, self.young_token
        if operation == "search":
            return SEARCH, {"q": rng.choice(WORDS)}, self.young_token
        if operation == "calendar":
            return MONTH, {"month": MONTH_OF_SEED}, self.young_token
        if operation == "createEntry":
            entry = {"date": f"{MONTH_OF_SEED}-{rng.randint(1, 31):02}", "kind": "TEXT", "text": "Went to the park after school"}
            return CREATE, {"i": entry}, self.young_token
        if operation == "login":
            return LOGIN, {"u": self.young, "p": password}, None
        return SHARED, {"y": self.shared_person}, self.worker_token


async def actors(count):
    """`count` actors, spread over the tenants: a young person each (heavy excepted) and a
    social worker with young people, whose first young person's shares they read."""
    people = []
    for t in range(1, int(tenant_count) + 1):
        slug = f"{prefix}-{t}"
        young = sql(f"""select p.username from people p join tenants t using (tenant_id) where t.slug = '{slug}'
                        and p.role = 'YOUNG_PERSON' and p.username <> 'heavy' order by p.username limit {count}""")
        workers = sql(f"""select p.email from people p join tenants t using (tenant_id) where t.slug = '{slug}'
                          and p.role = 'SOCIAL_WORKER' and exists (select 1 from assignments a where a.tenant_id = p.tenant_id
                          and a.adult_id = p.id and a.until is null) order by p.email limit {count}""")
        people += [(slug, y, workers[i % len(workers)]) for i, y in enumerate(young)]
    rng = random.Random(18)
    chosen = rng.sample(people, min(count, len(people)))
    connection = await Connection().open()
    made, worker_tokens = [], {}
    for slug, young, worker in chosen:
        if (slug, worker) not in worker_tokens:
            token = await login(connection, slug, worker)
            _, answer = await connection.post(slug, CASELOAD, {}, token)
            ids = [p["youngPerson"]["id"] for p in (answer.get("data") or {}).get("myYoungPeople") or []]
            if not ids:
                sys.exit(f"load bench: {worker} of {slug} looks after nobody: {answer}")
            worker_tokens[(slug, worker)] = (token, ids[0])
        token, shared = worker_tokens[(slug, worker)]
        made.append(Actor(slug, young, worker, token, await login(connection, slug, young), shared))
    connection.writer.close()
    return made


class Samples:
    def __init__(self):
        self.times, self.errors = {}, {}

    def add(self, operation, milliseconds, error):
        self.times.setdefault(operation, []).append(milliseconds)
        if error:
            self.errors.setdefault(operation, []).append(error)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


async def run(actors_used, seconds, choose, samples_of):
    """Each actor's closed loop for `seconds`; `samples_of(now)` is where a request ending at `now`
    is recorded (None: not recorded)."""
    deadline = time.monotonic() + seconds

    async def loop(actor, seed):
        rng = random.Random(seed)
        connection = await Connection().open()
        while (now := time.monotonic()) < deadline:
            operation = choose(rng)
            query, variables, token = actor.request(operation, rng)
            started = time.perf_counter()
            status, answer = await connection.post(actor.slug, query, variables, token)
            elapsed = (time.perf_counter() - started) * 1000
            error = None if status == 200 and not answer.get("errors") else f"HTTP {status} {str(answer.get('errors'))[:200]}"
            if (samples := samples_of(time.monotonic())) is not None:
                samples.add(operation, elapsed, error)
        connection.writer.close()

    await asyncio.gather(*(loop(actor, i) for i, actor in enumerate(actors_used)))


def mixed_choice(rng):
    return rng.choices([name for name, _ in MIX], [weight for _, weight in MIX])[0]


def table(level, samples, seconds):
    total = sum(len(v) for v in samples.times.values())
    print(f"  {level} connections: {total / seconds:.0f} requests/s in all, server RSS {rss_mb():.0f} MB, load {load_average()}")
    for operation, _ in MIX:
        times = samples.times.get(operation, [])
        errors = samples.errors.get(operation, [])
        print(f"    {operation:<14}{len(times) / seconds:>9.1f}{percentile(times, 0.5):>9.1f}{percentile(times, 0.99):>9.1f}{len(errors):>8}")
        for error in errors[:2]:
            print(f"      error: {error}")


async def main():
    if mode == "mixed":
        levels, seconds = [int(n) for n in sys.argv[7].split(",")], float(sys.argv[8])
        everyone = await actors(max(levels))
        print(f"  (per operation: requests/s, p50 ms, p99 ms, errors; {seconds:.0f} s at each level after 5 s of warm-up)")
        for level in levels:
            await run(everyone[:level], 5, mixed_choice, lambda now: None)
            samples = Samples()
            await run(everyone[:level], seconds, mixed_choice, lambda now: samples)
            table(level, samples, seconds)
    elif mode == "journal-requests":
        connection = await Connection().open()
        slug = f"{prefix}-1"
        token = await login(connection, slug, "heavy")
        connection.writer.close()
        with open(sys.argv[7], "w") as requests:
            requests.write(f"{slug} {token} {json.dumps({'query': FIRST_PAGE, 'variables': {}})}\n")
    else:
        level, seconds, window = int(sys.argv[7]), float(sys.argv[8]), float(sys.argv[9])
        everyone = await actors(level)
        await run(everyone, 30, mixed_choice, lambda now: None)
        started, windows = time.monotonic(), []

        def samples_of(now):
            if now - started >= seconds:  # a request that ended after the soak: not counted
                return None
            index = int((now - started) // window)
            while len(windows) <= index:
                if windows:
                    report(len(windows) - 1)
                windows.append((Samples(), rss_mb()))
            return windows[index][0]

        def report(index):
            samples, rss = windows[index]
            times = [t for v in samples.times.values() for t in v]
            errors = sum(len(v) for v in samples.errors.values())
            print(f"  minute {(index + 1) * window / 60:5.1f}: {len(times) / window:6.0f} requests/s, p50 {percentile(times, 0.5):6.1f} ms, "
                  f"p99 {percentile(times, 0.99):6.1f} ms, {errors} errors, RSS {rss:.0f} MB, load {load_average()}", flush=True)

        await run(everyone, seconds, mixed_choice, samples_of)
        report(len(windows) - 1)
        first, last = windows[0], windows[-1]
        p99 = lambda w: percentile([t for v in w[0].times.values() for t in v], 0.99)
        print(f"  start (after 30 s of warm-up): RSS {first[1]:.0f} MB, p99 {p99(first):.1f} ms; "
              f"end: RSS {rss_mb():.0f} MB ({(rss_mb() / first[1] - 1) * 100:+.1f} %), p99 {p99(last):.1f} ms")


asyncio.run(main())
