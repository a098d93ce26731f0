"""What scripts/bench-journal.py and scripts/bench-sharing.py share: GraphQL requests to one
tenant over one kept-alive connection, timing them, and counting the SQL statements the server's
role ran (pg_stat_statements in the schema bench_stats, through BENCH_PSQL: the command line of a
superuser psql on the bench cluster).
"""
import http.client, json, os, shlex, statistics, subprocess, sys, time, urllib.parse


class GraphQL:
    """POSTs to /t/<slug>/graphql of `base`, on one kept-alive connection."""

    def __init__(self, base, slug):
        url = urllib.parse.urlparse(base)
        self.slug = slug
        self.path = f"/t/{slug}/graphql"
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def post(self, query, variables=None, token=None):
        """(HTTP status, the decoded answer)."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request("POST", self.path, body=json.dumps({"query": query, "variables": variables or {}}), headers=headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")

    def login(self, name, password, bench):
        """The bearer token of `name`; stops the bench `bench` when login fails."""
        status, answer = self.post('mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
                                   {"u": name, "p": password})
        token = ((answer.get("data") or {}).get("login") or {}).get("token")
        if not token:
            sys.exit(f"{bench} bench: login as {name} in {self.slug} failed: HTTP {status} {answer}")
        return token


psql = shlex.split(os.environ["BENCH_PSQL"])


def sql(text):
    """What the superuser psql prints for `text`, unaligned, without the header."""
    return subprocess.run(psql + ["-X", "-A", "-t", "-q", "-c", text], check=True, capture_output=True, text=True).stdout.strip()


def count_statements():
    """Statements of the server's role since the last reset: (all, of which BEGIN/COMMIT/ROLLBACK)."""
    total, transaction = sql("""select coalesce(sum(calls), 0), coalesce(sum(calls) filter (where query ~* '^\\s*(begin|commit|rollback)'), 0)
                                from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                                where r.rolname = 'storykeep_app'""").split("|")
    return int(total), int(transaction)


def timed(send, requests, bench, name, reset=False):
    """Milliseconds of each of `requests` calls of `send` (which answers (status, answer)), sorted,
    after 20 to warm up (prepared statements, caches), and with `reset` pg_stat_statements reset
    between the two; stops the bench on an error."""
    for _ in range(20):
        send()
    if reset:
        sql("select bench_stats.pg_stat_statements_reset()")
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        status, answer = send()
        samples.append((time.perf_counter() - started) * 1000)
        if status != 200 or answer.get("errors"):
            sys.exit(f"{bench} bench: {name}: HTTP {status} {answer}")
    return sorted(samples)


def statements_per_request(send, times=5):
    """The statements one call of `send` runs, over `times` single calls: "N (n + m BEGIN/COMMIT)",
    several joined by "or" when they differ."""
    counts = set()
    for _ in range(times):
        sql("select bench_stats.pg_stat_statements_reset()")
        send()
        counts.add(count_statements())
    return " or ".join(f"{total} ({total - tx} + {tx} BEGIN/COMMIT)" for total, tx in sorted(counts))


def p50_p99(samples):
    """The median and the 99th percentile of sorted `samples`."""
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.99) - 1)]


def load_line(requests):
    """The closing line of a bench's table."""
    return (f"  ({requests} requests each after 20 warm-up; statements from pg_stat_statements, 5 single requests each;"
            f" load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
