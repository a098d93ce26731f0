#!/usr/bin/env python3
"""createEntry with and without the rewards module, for scripts/bench-rewards.sh (which starts the
database and the server and makes the two tenants): p50, p90 and p99 of createEntry over HTTP in
each tenant, the requests of the two interleaved one for one on two kept-alive connections, and
the SQL statements one createEntry ran in each, from pg_stat_statements (reset before a single
request, then the `calls` of the server's role summed), with the statements rewards added.

    bench-rewards.py BASE_URL SLUG_WITH SLUG_WITHOUT USERNAME PASSWORD [REQUESTS]

BENCH_PSQL is the command line of a superuser psql on the bench cluster (pg_stat_statements in
the schema bench_stats).
"""
import http.client, json, os, shlex, statistics, subprocess, sys, time, urllib.parse

base, with_slug, without_slug, username, password = sys.argv[1:6]
requests = int(sys.argv[6]) if len(sys.argv) > 6 else 1000
url = urllib.parse.urlparse(base)
psql = shlex.split(os.environ["BENCH_PSQL"])

CREATE = """mutation Write($i: EntryInput!) { createEntry(input: $i) { id date kind text } }"""
ENTRY = {"i": {"date": "2026-10-15", "kind": "TEXT", "text": "Scored twice at football practice"}}


class Tenant:
    def __init__(self, slug):
        self.slug = slug
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        self.token = None
        self.samples = []

    def post(self, query, variables=None):
        body = json.dumps({"query": query, "variables": variables or {}})
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request("POST", f"/t/{self.slug}/graphql", body=body, headers=headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read() or b"{}")
        if response.status != 200 or answer.get("errors"):
            sys.exit(f"rewards bench: {self.slug}: HTTP {response.status} {json.dumps(answer)[:300]}")
        return answer

    def log_in(self):
        answer = self.post('mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
                           {"u": username, "p": password})
        self.token = answer["data"]["login"]["token"]

    def write(self):
        started = time.perf_counter()
        self.post(CREATE, ENTRY)
        self.samples.append((time.perf_counter() - started) * 1000)


def sql(text):
    return subprocess.run(psql + ["-X", "-A", "-t", "-q", "-F", "\t", "-c", text], check=True, capture_output=True, text=True).stdout.strip()


def statements_of_one(tenant):
    """The server role's statements in one createEntry: (count, [(calls, text)])."""
    sql("select bench_stats.pg_stat_statements_reset()")
    tenant.write()
    rows = sql("""select calls, round(total_exec_time::numeric, 3), regexp_replace(left(query, 100), '\\s+', ' ', 'g')
                  from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                  where r.rolname = 'storykeep_app' order by query""")
    listed = [(int(calls), float(ms), text) for calls, ms, text in (line.split("\t", 2) for line in rows.splitlines() if line)]
    return sum(calls for calls, _, _ in listed), listed


with_rewards, without_rewards = Tenant(with_slug), Tenant(without_slug)
for tenant in (with_rewards, without_rewards):
    tenant.log_in()
    for _ in range(50):  # warm-up: prepared statements, caches, the first achievements earned
        tenant.write()
    tenant.samples.clear()
for _ in range(requests):
    with_rewards.write()
    without_rewards.write()

counts = {}
for tenant in (with_rewards, without_rewards):
    counts[tenant.slug] = [statements_of_one(tenant) for _ in range(3)]


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[max(0, int(len(ordered) * fraction) - 1)]


print(f"  {'createEntry (GraphQL over HTTP, kept-alive)':<46}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}  SQL statements")
for label, tenant in (("with rewards", with_rewards), ("without rewards", without_rewards)):
    seen = sorted({total for total, _ in counts[tenant.slug]})
    print(f"  {label + ' (' + tenant.slug + ')':<46}{statistics.median(tenant.samples):>9.3f}"
          f"{percentile(tenant.samples, 0.9):>9.3f}{percentile(tenant.samples, 0.99):>9.3f}  {' or '.join(map(str, seen))}")
extra_p50 = statistics.median(with_rewards.samples) - statistics.median(without_rewards.samples)
extra_statements = min(t for t, _ in counts[with_slug]) - min(t for t, _ in counts[without_slug])
print(f"  extra at p50: {extra_p50:+.3f} ms; extra statements: {extra_statements:+d}"
      f" ({requests} requests each, interleaved, after 50 warm-up; every entry paid;"
      f" load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
without_texts = {text for _, _, text in counts[without_slug][0][1]}
print("  the statements rewards added to one createEntry (execution time in PostgreSQL, the least of 3):")
for index, (calls, _, text) in enumerate(counts[with_slug][0][1]):
    if text not in without_texts:
        least = min(run[1][index][1] for run in counts[with_slug] if len(run[1]) > index and run[1][index][2] == text)
        print(f"    {calls} x {least:.3f} ms  {text}")
