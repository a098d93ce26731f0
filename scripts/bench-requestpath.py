"""The request path beside its references (issue 19), for scripts/bench-requestpath.sh, which seeds
the database, starts the server (jobs off) and compiles scripts/bench-argon2.c; this does the rest:

  1. chooses young people of the seeded tenants with at least 21 entries and a tag: readers (the
     journal page, `me`, `login`) and writers (`createEntry`), and logs them in through Storykeep;
  2. captures what Storykeep sends PostgreSQL for each reader's first journal page, each writer's
     createEntry with one tag, `{ me { id } }` and a login: a second server, with a pool of one
     connection, talks to PostgreSQL through a small proxy here that notes how the statements
     travel (each Sync of the extended protocol ends a round trip; a simple query is one), while
     `log_statement = 'all'` (ALTER SYSTEM, pg_reload_conf(), for a moment) logs each statement
     with its values; the two are matched in order and the statements checked to be the same.
     Then the peer's, the same way (one worker, one connection), and whether they are
     Storykeep's statements in Storykeep's order;
  3. turns each reader's and writer's capture into a pgbench script: the same statements, their
     parameters bound by pgbench variables (a NULL parameter is written NULL, an empty one '':
     pgbench binds neither), and the same round trips (\\startpipeline ... \\endpipeline; a
     query's COMMIT, which Storykeep does not wait for, travels with its last round trip); the id
     createEntry returns is taken with \\gset for the statements after it (the statement also
     returns it as an array); pgbench runs as the first 8 readers or writers, a process each (see
     run_pgbench);
  4. starts the Python peer (scripts/bench-peer.py), checks that its journal page is Storykeep's
     and that each one's sessions work on the other, and warms both servers' connections up;
  5. runs the rounds: in each, every workload on each system in turn (the order rotating from
     round to round), wrk (scripts/bench-requestpath.lua) or pgbench for SECONDS, with the CPU
     time of the server's processes and of PostgreSQL's (the postmaster and its children, from
     /proc/<pid>/stat) over each run; then the bare Argon2id loop, `me`'s p99 alone and logins at
     8 connections with `me` beside them, for Storykeep and for the peer;
  6. prints a table a workload: the medians over the rounds, and the ratios the targets name.

BENCH_PSQL is the command line of a superuser psql on the cluster; DATABASE_URL the app role's.
BENCH_RP_CAPTURE_FILE=PATH also writes the captures (statements, values, round trips) there as
JSON. BENCH_RP_HOLD=PATH (to look into a run): once the pgbench scripts are written, writes their
folder, the app role's URL and pgbench's -D options to PATH and waits while PATH exists.
"""
import argparse, asyncio, json, os, re, resource, shlex, signal, socket, statistics, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.parse, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--base", required=True)
parser.add_argument("--server-pid", type=int, required=True)
parser.add_argument("--bin", required=True)
parser.add_argument("--root", required=True)
parser.add_argument("--postmaster-pid", type=int, required=True)
parser.add_argument("--pg-port", type=int, required=True)
parser.add_argument("--argon2", required=True)
parser.add_argument("--pgbench", default="pgbench")
parser.add_argument("--tenants", type=int, default=10)
parser.add_argument("--users", type=int, default=64)
parser.add_argument("--seconds", type=float, default=20)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--peer-workers", type=int, default=os.cpu_count() or 2)
parser.add_argument("--only", default="page,create,login", help="the workloads to run, of page, create and login")
args = parser.parse_args()

PASSWORD = "seed-password"
PSQL = shlex.split(os.environ["BENCH_PSQL"])
DATABASE_URL = os.environ["DATABASE_URL"]
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = tempfile.mkdtemp(prefix="requestpath.", dir=args.root)
os.chmod(WORK, 0o755)
USERS = max(1, min(args.users, 500))

# The GraphQL the project counts (Tests/StorykeepServerTests/RequestPathHTTPTests.swift and
# JournalHTTPSupport.swift): a young person's first page, createEntry with one tag.
FIRST_PAGE = ("query FirstPage($first: Int!) { entries(first: $first) { edges { cursor node { id date kind text mood "
              "background createdAt tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }")
CREATE = ("mutation($i: EntryInput!) { createEntry(input: $i) { id date kind text mood background suggestion "
          "tags { id name } media { id contentType byteSize sha256 url } } }")
ME = "{ me { id } }"
LOGIN = "mutation Login($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"


def page_body():
    return {"query": FIRST_PAGE, "variables": {"first": 20}}


def create_body(tag):
    return {"query": CREATE, "variables": {"i": {"date": "2026-10-15", "kind": "TEXT", "text": "Went to the park after school",
                                                  "tagIds": [tag]}}}


def login_body(name):
    return {"query": LOGIN, "variables": {"u": name, "p": PASSWORD}}


def sql(text):
    out = subprocess.run(PSQL + ["-X", "-A", "-t", "-q", "-F", "|", "-c", text], check=True, capture_output=True, text=True).stdout
    return [line.split("|") for line in out.splitlines() if line]


def post(base, slug, body, token=None, timeout=60):
    request = urllib.request.Request(f"{base}/t/{slug}/graphql", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def graphql(base, slug, body, token=None):
    status, raw = post(base, slug, body, token)
    answer = json.loads(raw)
    if status != 200 or answer.get("errors"):
        sys.exit(f"request path bench: {base} {slug} answered HTTP {status}: {raw[:400]!r}")
    return answer["data"]


def free_port(start):
    port = start
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return port
        port += 1


def wait_ready(url, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except Exception:
            time.sleep(0.1)
    return False


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


# ---------------------------------------------------------------------------------------------
# CPU time from /proc: a process's own (its threads included) and its children's that it waited
# for, and every live descendant's own.

TICK = os.sysconf("SC_CLK_TCK")


def stat_fields(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    return text[text.rindex(")") + 2:].split()  # fields from the state (field 3) on


def tree_cpu(root):
    """Seconds of CPU of `root`, its reaped children and its live descendants."""
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                children.setdefault(int(stat_fields(name)[1]), []).append(int(name))
            except (OSError, ValueError, IndexError):
                pass
    total, stack = 0, [root]
    try:
        f = stat_fields(root)
        total += int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])  # utime stime cutime cstime
    except OSError:
        return 0.0
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        try:
            f = stat_fields(pid)
            total += int(f[11]) + int(f[12])
        except OSError:
            continue
        stack.extend(children.get(pid, []))
    return total / TICK


# ---------------------------------------------------------------------------------------------
# The people

def choose_people():
    rows = sql(f"""
        select t.slug, p.username, p.id,
               (select tg.id from tags tg where tg.tenant_id = p.tenant_id and tg.owner_id = p.id order by tg.name, tg.id limit 1)
        from people p join tenants t using (tenant_id)
        where t.slug like 'load-%' and p.role = 'YOUNG_PERSON' and p.disabled_at is null
          and exists (select from tags tg where tg.tenant_id = p.tenant_id and tg.owner_id = p.id)
          and (select count(*) from (select from entries e where e.tenant_id = p.tenant_id and e.author_id = p.id
                                       and e.archived_at is null limit 21) as enough) = 21
        order by md5(p.id::text) limit {2 * USERS}""")
    if len(rows) < 2:
        sys.exit("request path bench: too few young people with 21 entries and a tag (more --entries, fewer --people)")
    half = len(rows) // 2
    readers = [dict(slug=r[0], name=r[1], id=r[2]) for r in rows[:half]]
    writers = [dict(slug=r[0], name=r[1], id=r[2], tag=r[3]) for r in rows[half:]]
    return readers, writers


def log_in(people):
    for person in people:
        person["token"] = graphql(args.base, person["slug"], login_body(person["name"]))["login"]["token"]


# ---------------------------------------------------------------------------------------------
# The capture: a proxy that notes how statements travel, and log_statement for their values

class Proxy(threading.Thread):
    """Relays PostgreSQL's protocol between 127.0.0.1:port and the cluster, noting for the
    client's messages each statement executed (its SQL, from Parse and Bind) and each Sync (the
    end of a round trip) and simple Query (one statement, a round trip of its own) in `events`:
    ("execute", sql), ("sync",), ("query", sql)."""

    def __init__(self, target_port):
        super().__init__(daemon=True)
        self.target_port, self.events, self.lock, self.ports = target_port, [], threading.Lock(), set()
        self.port = free_port(26000)
        self.ready = threading.Event()

    def run(self):
        asyncio.run(self.serve())

    async def serve(self):
        server = await asyncio.start_server(self.relay, "127.0.0.1", self.port)
        self.loop = asyncio.get_running_loop()
        self.stopping = asyncio.Event()
        self.ready.set()
        async with server:
            await self.stopping.wait()

    def stop(self):
        self.loop.call_soon_threadsafe(self.stopping.set)

    def note(self, event):
        with self.lock:
            self.events.append(event)

    async def relay(self, client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        with self.lock:  # PostgreSQL knows the connection by this port (pg_stat_activity.client_port)
            self.ports.add(server_writer.get_extra_info("sockname")[1])

        async def backwards():
            try:
                while data := await server_reader.read(65536):
                    client_writer.write(data)
                    await client_writer.drain()
            finally:
                client_writer.close()

        back = asyncio.create_task(backwards())
        statements, bound = {}, ""
        try:
            # Startup: untyped messages until the real startup packet (SSL and GSS requests first).
            while True:
                head = await client_reader.readexactly(4)
                body = await client_reader.readexactly(int.from_bytes(head, "big") - 4)
                server_writer.write(head + body)
                if int.from_bytes(body[:4], "big") not in (80877103, 80877104):
                    break
            while True:
                kind = await client_reader.readexactly(1)
                head = await client_reader.readexactly(4)
                body = await client_reader.readexactly(int.from_bytes(head, "big") - 4)
                if kind == b"P":
                    name, rest = body.split(b"\0", 1)
                    statements[name] = rest.split(b"\0", 1)[0].decode()
                elif kind == b"B":
                    _, rest = body.split(b"\0", 1)
                    bound = statements.get(rest.split(b"\0", 1)[0], "?")
                elif kind == b"E":
                    self.note(("execute", bound))
                elif kind == b"S":
                    self.note(("sync",))
                elif kind == b"Q":
                    self.note(("query", body.rstrip(b"\0").decode()))
                server_writer.write(kind + head + body)
                await server_writer.drain()
                if kind == b"X":
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            server_writer.close()
            await asyncio.gather(back, return_exceptions=True)


LOG_LINE = re.compile(r"^(\d+)\|([^|]*)\|(LOG|DETAIL|ERROR|STATEMENT|WARNING|HINT|CONTEXT):  (.*)$")


def parse_log(text, pids):
    """The statements of the backends `pids` in a stretch of the log: dicts of kind
    (execute|statement), sql and params (a list of str, or None for NULL)."""
    entries, current = [], None
    for line in text.split("\n"):
        match = LOG_LINE.match(line)
        if not match:
            if current is not None and line.startswith("\t"):
                current[1].append(line[1:])
            continue
        pid, user, level, message = match.groups()
        current = [level, [message], pid]
        entries.append(current)
    statements = []
    for level, lines, pid in entries:
        message = "\n".join(lines)
        if pid not in pids:  # another connection's (the measured server reads its tenants every 30 s)
            continue
        if level == "LOG":
            m = re.match(r"^(execute [^:]*|statement): (.*)$", message, re.S)
            if m:
                statements.append({"kind": "statement" if m.group(1) == "statement" else "execute", "sql": m.group(2), "params": []})
        elif level == "DETAIL" and message.startswith("parameters: ") and statements:
            statements[-1]["params"] = parse_params(message[len("parameters: "):])
    return statements


def parse_params(text):
    """`$1 = 'a', $2 = NULL, ...` as PostgreSQL logs a statement's parameters."""
    values, i = [], 0
    while i < len(text):
        m = re.compile(r"\$(\d+) = ").match(text, i)
        if not m:
            raise ValueError(f"parameters: cannot read {text[i:i + 40]!r}")
        i = m.end()
        if text.startswith("NULL", i):
            values.append(None)
            i += 4
        else:
            assert text[i] == "'"
            i += 1
            value = []
            while True:
                j = text.index("'", i)
                value.append(text[i:j])
                if text.startswith("''", j):
                    value.append("'")
                    i = j + 2
                else:
                    i = j + 1
                    break
            values.append("".join(value))
        if text.startswith(", ", i):
            i += 2
    return values


def group_trips(events, statements):
    """The round trips of one request: lists of statements (with their SQL, values and kind), as
    the proxy saw them travel, each statement's values from the log, matched in order."""
    trips, trip, logged = [], [], iter(statements)
    for event in events:
        if event[0] == "execute":
            entry = next(logged, None)
            if entry is None or entry["sql"] != event[1]:
                raise RuntimeError(f"capture: the log and the proxy disagree at {event[1][:80]!r} / {entry and entry['sql'][:80]!r}")
            trip.append(entry)
        elif event[0] == "sync":
            if trip:
                trips.append(trip)
            trip = []
        else:
            entry = next(logged, None)
            if entry is None or entry["sql"] != event[1]:
                raise RuntimeError(f"capture: the log and the proxy disagree at {event[1][:80]!r}")
            if trip:
                trips.append(trip)
            trips.append([entry])
            trip = []
    if trip:
        trips.append(trip)
    return trips


class Mismatch(RuntimeError):
    def __init__(self, message, events, text):
        super().__init__(message)
        self.events, self.text = events, text


class Capture:
    """A server of its own (Storykeep's, or the peer's) on a pool of one connection that goes
    through the proxy, and log_statement: what each of its requests sends PostgreSQL."""

    def __init__(self, proxy, system):
        self.proxy = proxy
        url = urllib.parse.urlsplit(DATABASE_URL)
        address = (f"postgresql://storykeep_app:{urllib.parse.quote(urllib.parse.unquote(url.password), safe='')}"
                   f"@127.0.0.1:{proxy.port}/{url.path.lstrip('/')}?sslmode=disable")
        self.port = free_port(18580)
        self.log = open(os.path.join(WORK, f"capture-{system}.log"), "w")
        if system == "storykeep":
            environment = dict(os.environ, DATABASE_URL=address + "&gssencmode=disable",
                               STORYKEEP_DATABASE_LISTEN_URL=DATABASE_URL, STORYKEEP_DATABASE_POOL_SIZE="1",
                               STORYKEEP_HTTP_PORT=str(self.port), STORYKEEP_JOBS_ENABLED="false",
                               STORYKEEP_TENANTS_REFRESH_SECONDS="86400", STORYKEEP_LOG_LEVEL="warning")
            command, ready = [args.bin, "serve"], "/health/ready"
        else:
            environment = dict(os.environ)
            command = [sys.executable, os.path.join(HERE, "bench-peer.py"), "--port", str(self.port), "--workers", "1",
                       "--pool", "1", "--database-url", address]
            ready = "/health"
        self.process = subprocess.Popen(command, env=environment, stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        if not wait_ready(self.base + ready, 60):
            sys.exit(f"request path bench: the capture's {system} did not start: {open(self.log.name).read()[-1500:]}")
        self.postgres_log = os.path.join(args.root, "postgres.log")

    @staticmethod
    def logging(on):
        """log_statement = 'all' (and a prefix saying whose each line is) for a moment."""
        if on:
            sql("alter system set log_statement = 'all'")
            sql("alter system set log_line_prefix = '%p|%u|'")
        else:
            sql("alter system reset log_statement")
            sql("alter system reset log_line_prefix")
        sql("select pg_reload_conf()")
        time.sleep(0.5)

    def request(self, slug, body, token=None, logged=True):
        """Makes the request; its round trips (lists of statements) and its answer (`logged`
        false: a warm-up before the log is on, only the answer). A request whose log and proxy
        notes do not match is made again (twice at most), its notes kept in the work folder."""
        for attempt in range(3):
            try:
                return self.attempt(slug, body, token, logged)
            except Mismatch as mismatch:
                where = os.path.join(WORK, f"capture-mismatch-{time.monotonic_ns()}.json")
                with open(where, "w") as f:
                    json.dump({"events": mismatch.events, "log": mismatch.text}, f, indent=1)
                print(f"  (capture: {mismatch}; made again, notes in {where})", file=sys.stderr, flush=True)
                if attempt == 2:
                    raise

    def attempt(self, slug, body, token, logged):
        with self.proxy.lock:
            first_event = len(self.proxy.events)
        offset = os.path.getsize(self.postgres_log)
        status, raw = post(self.base, slug, body, token)
        answer = json.loads(raw)
        if status != 200 or answer.get("errors"):
            sys.exit(f"request path bench: capture request answered HTTP {status}: {raw[:400]!r}")
        time.sleep(0.15)  # a query's COMMIT is sent, not waited for: let it arrive
        if not logged:
            return None, answer["data"]
        with self.proxy.lock:
            events = self.proxy.events[first_event:]
        with open(self.postgres_log, errors="replace") as f:
            f.seek(offset)
            text = f.read()
        with self.proxy.lock:
            ports = sorted(self.proxy.ports)
        pids = {row[0] for row in sql(f"select pid from pg_stat_activity where client_port in ({', '.join(map(str, ports))})")}
        try:
            return group_trips(events, parse_log(text, pids)), answer["data"]
        except RuntimeError as error:
            raise Mismatch(str(error), events, text)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def describe(trips):
    """`[BEGIN; SELECT set_config; select … authenticate_session] [select e.id …] …` and counts."""
    def short(statement):
        text = " ".join(statement["sql"].split())
        name = re.search(r"\b(authenticate_session|pg_advisory_xact_lock|set_config|insert into \w+|update \w+|delete from \w+"
                         r"|left join \w+|from \w+(?: \w+)?)", text, re.I)
        head = text.split()[0]
        if head.upper() in ("BEGIN", "COMMIT", "ROLLBACK"):
            return head.upper()
        found = name.group(1) if name else "…"
        found = "from " + found.split()[-1] if found.lower().startswith("left join") else found
        return found if found.lower().startswith(head.lower()) else f"{head.lower()} {found}"
    statements = sum(len(t) for t in trips)
    return statements, len(trips), " ".join("[" + "; ".join(short(s) for s in t) + "]" for t in trips)


def normalised(statement):
    text = " ".join(statement["sql"].split()).rstrip(";")
    return text.upper() if text.upper() in ("BEGIN", "COMMIT", "ROLLBACK") else text


def difference(ours, theirs):
    """The first places where two captures' statements differ."""
    a, b = [normalised(s) for t in ours for s in t], [normalised(s) for t in theirs for s in t]
    lines = []
    for i in range(max(len(a), len(b))):
        x, y = (a[i] if i < len(a) else "(none)"), (b[i] if i < len(b) else "(none)")
        if x != y:
            lines.append(f"{i + 1}. Storykeep: {x[:100]}")
            lines.append(f"{' ' * len(str(i + 1))}  peer:      {y[:100]}")
        if len(lines) >= 6:
            break
    return lines


# ---------------------------------------------------------------------------------------------
# pgbench scripts from the captures

class Variables:
    """pgbench variables, one per distinct value: passed with -D."""

    def __init__(self):
        self.names = {}

    def name(self, value):
        if value not in self.names:
            self.names[value] = f"rp{len(self.names)}"
        return self.names[value]

    def options(self):
        return [f"-D{name}={value}" for value, name in self.names.items()]


def pgbench_script(trips, variables, query, returned_id=None):
    """The pgbench script of one captured request. `query`: Storykeep does not wait for the
    COMMIT, so it goes with the last round trip. `returned_id`: the id createEntry returned, which
    later statements use (as itself or as a one-element array): \\gset takes the new one."""
    lines = []
    trips = [list(t) for t in trips]
    if query and len(trips) > 1 and trips[-1][0]["sql"].strip().upper() == "COMMIT" and len(trips[-1]) == 1:
        trips[-2].append(trips.pop()[0])
    id_taken = False
    for trip in trips:
        pipelined = len(trip) > 1
        if pipelined:
            lines.append("\\startpipeline")
        for statement in trip:
            text = statement["sql"].strip().rstrip(";")
            params = statement["params"]
            for number in range(len(params), 0, -1):
                value = params[number - 1]
                if value is None:
                    replacement = "NULL"
                elif value == "":
                    replacement = "''"  # pgbench defines no empty variable
                elif returned_id and id_taken and value == returned_id:
                    replacement = ":new_id"
                elif returned_id and id_taken and value == "{" + returned_id + "}":
                    replacement = ":new_ids"
                else:
                    replacement = ":" + variables.name(value)
                text = re.sub(r"\$" + str(number) + r"(?!\d)", replacement, text)
            returns_id = returned_id and not id_taken and re.search(r"\binsert into entries\b", text)
            if returns_id:
                # The new entry's id, and as an array, for the statements after it.
                text = re.sub(r"select id from new_entry\s*$", "select id, '{' || id || '}' as ids from new_entry", text)
            lines.append(text + ";")
            if returns_id:
                lines.append("\\gset new_")
                id_taken = True
        if pipelined:
            lines.append("\\endpipeline")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Runs

def write_requests(name, lines):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        for slug, token, body in lines:
            f.write(f"{slug} {token or '-'} {json.dumps(body, separators=(',', ':'))}\n")
    return path


def clients_cpu():
    """Seconds of CPU of this process's children that ended: the load's clients (wrk, pgbench),
    each waited for before the next run (the peer's processes end only after the rounds)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(start, wait, server_root):
    """Runs a load (start() returns what wait() waits for) with the CPU time of `server_root`'s
    processes (None: none), of PostgreSQL's and of the clients over it."""
    server_before = tree_cpu(server_root) if server_root else 0
    postgres_before, client_before = tree_cpu(args.postmaster_pid), clients_cpu()
    started = time.monotonic()
    handle = start()
    result = wait(handle)
    elapsed = time.monotonic() - started
    result["server_cpu"] = (tree_cpu(server_root) - server_before) if server_root else None
    result["postgres_cpu"] = tree_cpu(args.postmaster_pid) - postgres_before
    result["client_cpu"] = clients_cpu() - client_before
    result["elapsed"] = elapsed
    result["load"] = load_average()
    return result


def wrk_command(base, connections, requests_file, seconds, delay_ms=0):
    threads = min(2, connections)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "10s", "--latency",
               "-s", os.path.join(HERE, "bench-requestpath.lua"), base, "--", requests_file]
    if delay_ms:
        command.append(str(delay_ms))
    return command


def wrk_result(process):
    out, err = process.communicate()
    match = re.search(r"^RESULT (.*)$", out, re.M)
    if process.returncode != 0 or not match:
        sys.exit(f"request path bench: wrk failed: {out[-600:]} {err[-600:]}")
    values = dict(pair.split("=") for pair in match.group(1).split())
    if err.strip():
        print("    " + err.strip().replace("\n", "\n    ")[:600], file=sys.stderr)
    return {"requests": int(values["requests"]), "rps": float(values["rps"]), "p50": float(values["p50_ms"]),
            "p99": float(values["p99_ms"]), "errors": int(values["errors"])}


def run_wrk(base, connections, requests_file, server_root, seconds=None):
    seconds = seconds or args.seconds
    return measure(lambda: subprocess.Popen(wrk_command(base, connections, requests_file, seconds), stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True),
                   wrk_result, server_root)


PGBENCH_WARM_UP = 3  # seconds of each pgbench run left out: its new connections plan the statements


def run_pgbench(scripts, variables, clients):
    """pgbench with `clients` connections: one pgbench process for each of the first (at most
    8) people's scripts, the clients shared out between them, so that a connection runs one
    person's statements (one prepared statement each, as on a Storykeep connection, rather than
    one for every person's script: each costs PostgreSQL several plans of policies hundreds of
    expressions long before its generic plan). Each runs the warm-up, then SECONDS, which alone
    are counted (transactions by when they ended, from pgbench's log) and whose CPU is measured."""
    logs = tempfile.mkdtemp(prefix="pgbench.", dir=WORK)
    count = max(1, min(clients, len(scripts), 8))
    shares = [clients // count + (1 if i < clients % count else 0) for i in range(count)]
    duration = int(args.seconds) + PGBENCH_WARM_UP
    postgres_before = started = None
    processes = []
    client_before = clients_cpu()
    began = time.time()
    for i, share in enumerate(shares):
        command = ([args.pgbench, "-n", "-M", "prepared", "-c", str(share), "-j", "1", "-T", str(duration), "-l",
                    f"--log-prefix={logs}/tx{i}"] + variables.options() + ["-f", scripts[i], DATABASE_URL])
        processes.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=WORK))
    time.sleep(PGBENCH_WARM_UP - (time.time() - began))
    postgres_before, started = tree_cpu(args.postmaster_pid), time.time()
    outputs = [process.communicate() for process in processes]
    postgres_cpu, ended = tree_cpu(args.postmaster_pid) - postgres_before, time.time()
    window = (began + PGBENCH_WARM_UP, began + PGBENCH_WARM_UP + int(args.seconds))
    errors = 0
    for process, (out, err) in zip(processes, outputs):
        if process.returncode not in (0, 2) or "tps = " not in out:
            sys.exit(f"request path bench: pgbench failed ({process.returncode}): {out[-800:]} {err[-800:]}")
        failed = re.search(r"^number of failed transactions: (\d+)", out, re.M)
        aborted = len(re.findall(r"aborted in command", err))
        if aborted:
            print("    pgbench: " + "\n    ".join(err.strip().splitlines()[:3]), file=sys.stderr)
        errors += (int(failed.group(1)) if failed else 0) + aborted
    latencies, every = [], 0
    for name in os.listdir(logs):
        with open(os.path.join(logs, name)) as f:
            for line in f:
                fields = line.split()  # client, transaction, latency µs, script, end (s, µs)
                every += 1
                if len(fields) >= 6 and window[0] <= int(fields[4]) + int(fields[5]) / 1e6 < window[1]:
                    latencies.append(int(fields[2]) / 1000)
        os.unlink(os.path.join(logs, name))
    latencies.sort()
    seconds = window[1] - window[0]
    return {"requests": len(latencies), "rps": len(latencies) / seconds, "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99), "errors": errors, "server_cpu": None, "all_requests": every,
            # From the window's start to the processes' end, which is the window and their goodbyes.
            "postgres_cpu": postgres_cpu * seconds / max(seconds, ended - started),
            "client_cpu": (clients_cpu() - client_before) * seconds / (ended - began),
            "elapsed": ended - started, "load": load_average()}


def percentile(values, fraction):
    return values[min(len(values) - 1, int(len(values) * fraction))] if values else float("nan")


def run_login(base, connections, login_file, me_file, server_root):
    """Logins at `connections` with `me` beside them (1 connection, every 20 ms)."""
    def start():
        login = subprocess.Popen(wrk_command(base, connections, login_file, args.seconds), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        probe = subprocess.Popen(wrk_command(base, 1, me_file, args.seconds, delay_ms=20), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        return login, probe

    def wait(handles):
        login, probe = handles
        result = wrk_result(login)
        result["me"] = wrk_result(probe)
        return result

    return measure(start, wait, server_root)


def run_probe(base, me_file, server_root):
    return measure(lambda: subprocess.Popen(wrk_command(base, 1, me_file, args.seconds, delay_ms=20), stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True), wrk_result, server_root)


def run_argon2():
    config = json.load(open(os.path.join(os.getcwd(), "Config/storykeep.json")))["argon2"]
    memory = os.environ.get("STORYKEEP_ARGON2_MEMORY_KIBIBYTES", config["memoryKibibytes"])
    iterations = os.environ.get("STORYKEEP_ARGON2_ITERATIONS", config["iterations"])
    lanes = os.environ.get("STORYKEEP_ARGON2_PARALLELISM", config["parallelism"])
    out = subprocess.run([args.argon2, str(memory), str(iterations), str(lanes), str(os.cpu_count() or 2), str(int(args.seconds))],
                         check=True, capture_output=True, text=True).stdout
    return {"rps": float(re.search(r": ([0-9.]+) hashes/s", out).group(1)), "line": out.strip(), "load": load_average()}


# ---------------------------------------------------------------------------------------------
# The peer

class Peer:
    def __init__(self):
        self.port = free_port(18680)
        self.log = open(os.path.join(WORK, "peer.log"), "w")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "bench-peer.py"), "--port", str(self.port), "--workers", str(args.peer_workers),
             "--database-url", DATABASE_URL], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        if not wait_ready(f"{self.base}/health", 60):
            self.stop()
            sys.exit(f"request path bench: the peer did not start: {open(self.log.name).read()[-2000:]}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


# ---------------------------------------------------------------------------------------------
# Tables

def median_of(results, key, sub=None):
    values = [(r[sub] if sub else r)[key] for r in results if r is not None and (r[sub] if sub else r)[key] is not None]
    return statistics.median(values) if values else None


def cpu_ms(results, which):
    values = [r[which] / r["requests"] * 1000 for r in results if r.get(which) is not None and r["requests"]]
    return statistics.median(values) if values else None


def cell(value, fmt):
    if value is None:
        width = re.match(r"\d*", fmt).group(0)
        return "—".rjust(int(width)) if width else "—"
    return format(value, fmt)


def print_table(title, rows):
    print(f"\n{title}")
    print(f"  {'':<34}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'server CPU':>12}{'PG CPU':>9}{'client CPU':>12}{'errors':>8}")
    print(f"  {'':<34}{'':>9}{'':>9}{'':>9}{'ms/req':>12}{'ms/req':>9}{'ms/req':>12}")
    for label, results in rows:
        errors = sum(r["errors"] for r in results)
        print(f"  {label:<34}{cell(median_of(results, 'rps'), '9.1f')}{cell(median_of(results, 'p50'), '9.2f')}"
              f"{cell(median_of(results, 'p99'), '9.2f')}{cell(cpu_ms(results, 'server_cpu'), '12.3f')}"
              f"{cell(cpu_ms(results, 'postgres_cpu'), '9.3f')}{cell(cpu_ms(results, 'client_cpu'), '12.3f')}{errors:>8}")


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


# ---------------------------------------------------------------------------------------------

workloads = set(args.only.split(","))


def statement_times():
    """What the server's role ran since the last reset (pg_stat_statements, top-level statements):
    {statement text: (calls, execution ms, planning ms)}."""
    rows = sql("""select regexp_replace(query, '\\s+', ' ', 'g'), calls, total_exec_time, total_plan_time
                  from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                  where r.rolname = 'storykeep_app'""")
    times = {}
    for query, calls, exec_ms, plan_ms in rows:
        # pgbench numbers the parameters in its own order: the texts match without the numbers.
        query = re.sub(r"\$\d+", "$", query).strip().rstrip(";")
        old = times.get(query, (0, 0.0, 0.0))
        times[query] = (old[0] + int(calls), old[1] + float(exec_ms), old[2] + float(plan_ms))
    return times


def print_statement_times(measured):
    """Per request of the journal page (8 connections, round 1): each statement's execution and
    planning time in PostgreSQL, Storykeep beside pgbench on the same statements."""
    print("\nWhere PostgreSQL's time goes, a journal page at 8 connections (round 1; pg_stat_statements, top-level"
          " statements; µs per request: execution + planning)")
    keys = set()
    for _, times, _ in measured.values():
        keys |= set(times)
    rows = []
    for key in keys:
        cells = []
        for system in ("storykeep", "pgbench"):
            requests, times, _ = measured[system]
            calls, exec_ms, plan_ms = times.get(key, (0, 0.0, 0.0))
            cells.append((calls / max(requests, 1), 1000 * exec_ms / max(requests, 1), 1000 * plan_ms / max(requests, 1)))
        rows.append((key, cells))
    rows.sort(key=lambda row: -(row[1][0][1] + row[1][0][2] + row[1][1][1] + row[1][1][2]))
    print(f"  {'statement':<70}{'Storykeep calls':>16}{'exec':>8}{'plan':>8}{'pgbench calls':>15}{'exec':>8}{'plan':>8}")
    totals = [[0.0, 0.0], [0.0, 0.0]]
    for key, cells in rows:
        if all(c[1] + c[2] < 1 for c in cells):
            continue
        line = f"  {key[:68]:<70}"
        for i, (calls, exec_us, plan_us) in enumerate(cells):
            line += f"{calls:{16 if i == 0 else 15}.2f}{exec_us:8.0f}{plan_us:8.0f}"
            totals[i][0] += exec_us
            totals[i][1] += plan_us
        print(line)
    print(f"  {'in all':<70}{'':>16}{totals[0][0]:8.0f}{totals[0][1]:8.0f}{'':>15}{totals[1][0]:8.0f}{totals[1][1]:8.0f}")
    for system in ("storykeep", "pgbench"):
        requests, _, postgres_cpu = measured[system]
        print(f"  {system}: {requests} requests counted; PostgreSQL's CPU {1e6 * postgres_cpu:.0f} µs a request (the run's window)")


def main():
    print(f"  (wrk and pgbench for {args.seconds:.0f} s a run, {args.rounds} rounds, the systems in turn; medians;"
          f" {os.cpu_count()} cores shared by clients, servers and PostgreSQL)")
    readers, writers = choose_people()
    log_in(readers + writers)
    print(f"  {len(readers)} readers and {len(writers)} writers among {args.tenants} tenants, logged in through Storykeep")

    # The capture.
    proxy = Proxy(args.pg_port)
    proxy.start()
    proxy.ready.wait()
    reader, writer = readers[0], writers[0]
    capture = Capture(proxy, "storykeep")
    try:
        # Each once first, so that its statements are prepared on the connection.
        capture.request(reader["slug"], page_body(), reader["token"], logged=False)
        capture.request(writer["slug"], create_body(writer["tag"]), writer["token"], logged=False)
        capture.request(reader["slug"], {"query": ME}, reader["token"], logged=False)
        capture.request(reader["slug"], login_body(reader["name"]), logged=False)
        Capture.logging(True)
        try:
            pages, creates = [], []
            for person in readers:
                trips, data = capture.request(person["slug"], page_body(), person["token"])
                pages.append((person, trips, data))
            for person in writers:
                trips, data = capture.request(person["slug"], create_body(person["tag"]), person["token"])
                creates.append((person, trips, data["createEntry"]["id"]))
            me_trips, _ = capture.request(reader["slug"], {"query": ME}, reader["token"])
            login_trips, _ = capture.request(reader["slug"], login_body(reader["name"]))
        finally:
            Capture.logging(False)
    finally:
        capture.stop()
    # The peer's, the same way.
    capture = Capture(proxy, "peer")
    try:
        for logged in (False, True):
            if logged:
                Capture.logging(True)
            try:
                peer_trips = {
                    "page": capture.request(reader["slug"], page_body(), reader["token"], logged=logged)[0],
                    "createEntry": capture.request(writer["slug"], create_body(writer["tag"]), writer["token"], logged=logged)[0],
                    "me": capture.request(reader["slug"], {"query": ME}, reader["token"], logged=logged)[0],
                    "login": capture.request(reader["slug"], login_body(reader["name"]), logged=logged)[0]}
            finally:
                if logged:
                    Capture.logging(False)
    finally:
        capture.stop()
        proxy.stop()

    print("\nWhat each sends PostgreSQL (captured: log_statement for the statements and their values, a proxy for their"
          " round trips; [ ] is a round trip)")
    ours = {"page": pages[0][1], "createEntry": creates[0][1], "me": me_trips, "login": login_trips}
    for key, label, query in [("page", "journal page", True), ("createEntry", "createEntry, one tag", False),
                              ("me", "{ me { id } }", True), ("login", "login", False)]:
        statements, round_trips, text = describe(ours[key])
        waited = round_trips - (1 if query else 0)
        print(f"  {label}, Storykeep: {statements} statements in {waited} round trips{' (its COMMIT not waited for)' if query else ''}")
        print(f"    {text}")
        statements, round_trips, _ = describe(peer_trips[key])
        same = [normalised(s) for t in ours[key] for s in t] == [normalised(s) for t in peer_trips[key] for s in t]
        print(f"  {label}, peer: {statements} statements in {round_trips} round trips;"
              f" {'the same statements as Storykeep, in the same order' if same else 'NOT the same statements:'}")
        if not same:
            for line in difference(ours[key], peer_trips[key]):
                print("    " + line)
    captured = {"storykeep": ours, "peer": peer_trips}
    with open(os.path.join(WORK, "captured.json"), "w") as f:
        json.dump(captured, f, indent=1)
    if os.environ.get("BENCH_RP_CAPTURE_FILE"):
        with open(os.environ["BENCH_RP_CAPTURE_FILE"], "w") as f:
            json.dump(captured, f, indent=1)

    variables = Variables()
    page_scripts, create_scripts = [], []
    for i, (person, trips, _) in enumerate(pages):
        path = os.path.join(WORK, f"page-{i}.sql")
        open(path, "w").write(pgbench_script(trips, variables, query=True))
        page_scripts.append(path)
    for i, (person, trips, new_id) in enumerate(creates):
        path = os.path.join(WORK, f"create-{i}.sql")
        open(path, "w").write(pgbench_script(trips, variables, query=False, returned_id=new_id))
        create_scripts.append(path)

    page_file = write_requests("page.txt", [(p["slug"], p["token"], page_body()) for p in readers])
    create_file = write_requests("create.txt", [(p["slug"], p["token"], create_body(p["tag"])) for p in writers])
    me_file = write_requests("me.txt", [(p["slug"], p["token"], {"query": ME}) for p in readers])
    login_file = write_requests("login.txt", [(p["slug"], None, login_body(p["name"])) for p in readers])

    if os.environ.get("BENCH_RP_HOLD"):  # debugging: keep everything up while this file exists
        open(os.environ["BENCH_RP_HOLD"], "w").write(json.dumps({"work": WORK, "database_url": DATABASE_URL,
                                                                 "options": variables.options()}))
        while os.path.exists(os.environ["BENCH_RP_HOLD"]):
            time.sleep(1)
    peer = Peer()
    try:
        ours = post(args.base, reader["slug"], page_body(), reader["token"])[1]
        theirs = post(peer.base, reader["slug"], page_body(), reader["token"])[1]
        same = json.loads(ours) == json.loads(theirs)
        print(f"\nThe Python peer (scripts/bench-peer.py: strawberry-graphql, asyncpg, uvicorn with {args.peer_workers} worker"
              f" processes): its journal page {'is' if same else 'is NOT'} Storykeep's, byte for byte{'' if ours == theirs else ' (as JSON)' if same else ''}")
        if not same:
            print(f"    Storykeep: {ours[:300]!r}\n    peer:      {theirs[:300]!r}")
        made = json.loads(post(peer.base, writers[0]["slug"], create_body(writers[0]["tag"]), writers[0]["token"])[1])
        if made.get("errors") or not made.get("data"):
            sys.exit(f"request path bench: the peer's createEntry: {made}")
        # Tokens work across: the peer's login on Storykeep, Storykeep's on the peer.
        token = graphql(peer.base, reader["slug"], login_body(reader["name"]))["login"]["token"]
        mine = graphql(args.base, reader["slug"], {"query": ME}, token)["me"]["id"]
        theirs_me = graphql(peer.base, reader["slug"], {"query": ME}, reader["token"])["me"]["id"]
        print(f"  a session the peer started answers Storykeep's me: {mine == reader['id']};"
              f" Storykeep's session answers the peer's: {theirs_me == reader['id']}")

        systems = {"storykeep": (args.base, args.server_pid), "peer": (peer.base, peer.process.pid)}
        results = {}
        statement_runs = {}

        def record(key, result):
            results.setdefault(key, []).append(result)

        if args.rounds:
            # Every pool connection of both servers has its statements prepared (pgbench's new
            # connections get a warm-up of their own in each run).
            print(f"  warm-up: each workload 3 s on Storykeep and on the peer, not counted", flush=True)
            for base, pid in systems.values():
                for connections, requests_file in ((32, page_file), (8, create_file), (8, login_file), (8, me_file)):
                    run_wrk(base, connections, requests_file, pid, seconds=3)
        for round_number in range(args.rounds):
            order = ["storykeep", "pgbench", "peer"]
            order = order[round_number % 3:] + order[:round_number % 3]
            print(f"  round {round_number + 1} of {args.rounds}: load {load_average()}", flush=True)
            runs = [("page", 8, page_file, page_scripts), ("page", 32, page_file, page_scripts), ("create", 8, create_file, create_scripts)]
            for workload, connections, requests_file, scripts in [run for run in runs if run[0] in workloads]:
                for system in order:
                    counted = round_number == 0 and workload == "page" and connections == 8 and system != "peer"
                    if counted:
                        sql("select bench_stats.pg_stat_statements_reset()")
                    if system == "pgbench":
                        result = run_pgbench(scripts, variables, connections)
                    else:
                        base, pid = systems[system]
                        result = run_wrk(base, connections, requests_file, pid)
                    record((workload, connections, system), result)
                    if counted:
                        # pg_stat_statements saw pgbench's warm-up too: all its transactions count.
                        statement_runs[system] = (result.get("all_requests", result["requests"]), statement_times(),
                                                  result["postgres_cpu"] / max(result["requests"], 1))
            if "login" not in workloads:
                continue
            record("argon2", run_argon2())
            for system in ("storykeep", "peer") if round_number % 2 == 0 else ("peer", "storykeep"):
                base, pid = systems[system]
                record(("me quiet", system), run_probe(base, me_file, pid))
                record(("login", system), run_login(base, 8, login_file, me_file, pid))
    finally:
        peer.stop()

    if not results:
        return
    names = {"storykeep": "Storykeep", "pgbench": "pgbench, Storykeep's statements", "peer": "Python peer"}
    for connections in (8, 32) if "page" in workloads else ():
        rows = [(f"{names[s]}", results[("page", connections, s)]) for s in ("storykeep", "pgbench", "peer")]
        print_table(f"Journal page (entries(first: 20) with tags and media), {connections} connections", rows)
        ours, base_tps, theirs = (median_of(results[("page", connections, s)], "rps") for s in ("storykeep", "pgbench", "peer"))
        cpu = cpu_ms(results[("page", connections, "storykeep")], "server_cpu")
        print(f"  Storykeep / pgbench: {cell(100 * (ratio(ours, base_tps) or 0), '.0f')} % (target ≥ 80 %);"
              f" Storykeep / peer: {cell(ratio(ours, theirs), '.2f')}× (target ≥ 6×);"
              f" server CPU {cell(cpu, '.3f')} ms a request (target ≤ 0.3 ms)")
    if len(statement_runs) == 2:
        print_statement_times(statement_runs)
    if "create" in workloads:
        rows = [(f"{names[s]}", results[("create", 8, s)]) for s in ("storykeep", "pgbench", "peer")]
        print_table("createEntry with one tag, 8 connections", rows)
        ours, theirs = (results[("create", 8, s)] for s in ("storykeep", "peer"))
        print(f"  Storykeep / peer: {cell(ratio(median_of(ours, 'rps'), median_of(theirs, 'rps')), '.2f')}× the throughput (target ≥ 3×),"
              f" p99 {cell(ratio(median_of(ours, 'p99'), median_of(theirs, 'p99')), '.2f')}× the peer's (target ≤ 1×)")
    if "login" not in workloads:
        return

    limit = statistics.median(r["rps"] for r in results["argon2"])
    print(f"\nLogin, 8 connections, beside the Argon2id limit of {os.cpu_count()} cores: {limit:.1f} hashes/s"
          f" ({results['argon2'][0]['line'].split(':')[0]}, libargon2, median of {len(results['argon2'])})")
    print(f"  {'':<34}{'logins/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'server CPU':>12}{'PG CPU':>9}{'errors':>8}"
          f"{'of limit':>10}{'me p99 quiet':>14}{'during':>9}{'ratio':>7}")
    for system in ("storykeep", "peer"):
        logins, quiet = results[("login", system)], results[("me quiet", system)]
        rps = median_of(logins, "rps")
        quiet_p99, loaded_p99 = median_of(quiet, "p99"), median_of(logins, "p99", "me")
        errors = sum(r["errors"] + r["me"]["errors"] for r in logins) + sum(r["errors"] for r in quiet)
        print(f"  {names[system]:<34}{cell(rps, '9.1f')}{cell(median_of(logins, 'p50'), '9.1f')}{cell(median_of(logins, 'p99'), '9.1f')}"
              f"{cell(cpu_ms(logins, 'server_cpu'), '12.2f')}{cell(cpu_ms(logins, 'postgres_cpu'), '9.2f')}{errors:>8}"
              f"{cell(100 * rps / limit, '8.0f')} %{cell(quiet_p99, '14.2f')}{cell(loaded_p99, '9.2f')}"
              f"{cell(ratio(loaded_p99, quiet_p99), '6.1f')}×")
    print("  (targets for Storykeep: logins ≥ 90 % of the limit; me's p99 during them under 3× the quiet one;"
          " CPU per login includes the me probe's requests)")
    everything = [r for rs in results.values() for r in rs]
    print(f"\n  load average at the end of each run: {min(float(r['load'].split()[0]) for r in everything):.2f}"
          f" to {max(float(r['load'].split()[0]) for r in everything):.2f} (1 min); now {load_average()}")


main()
