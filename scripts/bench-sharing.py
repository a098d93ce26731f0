#!/usr/bin/env python3
"""sharedWithMe over HTTP, for scripts/bench-sharing.sh (which seeds the database and starts the
server): p50 and p99 of a social worker's first page of what one of their 30 young people shared
(20 and 100 items, each with its entry's text, tags and files), of the unseen ones, and of
myYoungPeople with each one's unreadShares; each a GraphQL request to /t/<slug>/graphql with a
bearer token on one kept-alive connection, and the SQL statements one request ran, from
pg_stat_statements (reset before a single request, then the `calls` of the server's role summed).

    bench-sharing.py BASE_URL SLUG EMAIL PASSWORD YOUNG_PERSON_NAME AUTHOR [REQUESTS]

For comparison on the same server at the same moment, AUTHOR (a young person of SLUG with the
same password) reads the first page of their own journal (`entries`, 20 with tags and files).

BENCH_PSQL is the command line of a superuser psql on the bench cluster (pg_stat_statements in
the schema bench_stats).
"""
import http.client, json, os, shlex, statistics, subprocess, sys, time, urllib.parse

base, slug, email, password, young_name, author = sys.argv[1:7]
requests = int(sys.argv[7]) if len(sys.argv) > 7 else 500
url = urllib.parse.urlparse(base)
path = f"/t/{slug}/graphql"
psql = shlex.split(os.environ["BENCH_PSQL"])
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

SHARED = """query Shared($y: ID!, $first: Int!, $unseen: Boolean!) { sharedWithMe(youngPersonId: $y, first: $first, unseenOnly: $unseen) {
  edges { cursor node { id message sharedAt seenAt editedSinceShared
    entry { id date kind text mood tags { id name } media { id contentType byteSize sha256 url } } } }
  pageInfo { hasNextPage endCursor } } }"""
OWN = """query Own($first: Int!) { entries(first: $first) { edges { cursor node { id date kind text mood background createdAt
  tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }"""
YOUNG = """query Young { myYoungPeople { youngPerson { id displayName avatar } relationship since unreadShares } }"""


def post(query, variables=None, token=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request("POST", path, body=json.dumps({"query": query, "variables": variables or {}}), headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def sql(text):
    return subprocess.run(psql + ["-X", "-A", "-t", "-q", "-c", text], check=True, capture_output=True, text=True).stdout.strip()


def statements():
    """Statements of the server's role since the last reset: (all, of which BEGIN/COMMIT/ROLLBACK)."""
    total, transaction = sql("""select coalesce(sum(calls), 0), coalesce(sum(calls) filter (where query ~* '^\\s*(begin|commit|rollback)'), 0)
                                from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                                where r.rolname = 'storykeep_app'""").split("|")
    return int(total), int(transaction)


def login(name):
    status, answer = post('mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }', {"u": name, "p": password})
    token = ((answer.get("data") or {}).get("login") or {}).get("token")
    if not token:
        sys.exit(f"sharing bench: login as {name} in {slug} failed: HTTP {status} {answer}")
    return token


sharee_token, author_token = login(email), login(author)
status, answer = post(YOUNG, {}, sharee_token)
young = (answer.get("data") or {}).get("myYoungPeople") or []
chosen = next((y["youngPerson"]["id"] for y in young if y["youngPerson"]["displayName"] == young_name), None)
if not chosen:
    sys.exit(f"sharing bench: {email} does not look after {young_name}: {answer}")

cases = [
    ("sharedWithMe, first 20", SHARED, {"y": chosen, "first": 20, "unseen": False}),
    ("sharedWithMe, first 100", SHARED, {"y": chosen, "first": 100, "unseen": False}),
    ("sharedWithMe unseenOnly, first 20", SHARED, {"y": chosen, "first": 20, "unseen": True}),
    (f"myYoungPeople with unreadShares ({len(young)})", YOUNG, {}),
    (f"for comparison: {author}'s own entries, first 20", OWN, {"first": 20}, author_token),
]
print(f"  {'request (GraphQL over HTTP, kept-alive connection)':<44}{'p50 ms':>9}{'p99 ms':>9}{'items':>7}  SQL statements per request")
listings = {}
for name, query, variables, *who in cases:
    token = who[0] if who else sharee_token
    status, answer = post(query, variables, token)
    if status != 200 or answer.get("errors"):
        sys.exit(f"sharing bench: {name}: HTTP {status} {json.dumps(answer)[:300]}")
    data = next(iter(answer["data"].values()))
    items = len(data["edges"]) if isinstance(data, dict) else len(data)
    nodes = [e["node"].get("entry", e["node"]) for e in data["edges"]] if isinstance(data, dict) else []
    with_files = sum(1 for node in nodes if node["media"] and node["tags"]) if isinstance(data, dict) else items
    for _ in range(20):  # warm-up: prepared statements, caches
        post(query, variables, token)
    sql("select bench_stats.pg_stat_statements_reset()")
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        status, answer = post(query, variables, token)
        samples.append((time.perf_counter() - started) * 1000)
        if status != 200 or answer.get("errors"):
            sys.exit(f"sharing bench: {name}: HTTP {status} {answer}")
    samples.sort()
    # Where a request's time goes in the database, over the timed requests.
    listings[name] = sql("""select to_char(calls::float / %d, 'FM990.0') || ' x plan ' || to_char(mean_plan_time, 'FM990.000')
                                || ' ms, run ' || to_char(mean_exec_time, 'FM990.000') || ' ms: '
                                || regexp_replace(left(query, 80), '\\s+', ' ', 'g')
                         from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                         where r.rolname = 'storykeep_app' order by mean_plan_time + mean_exec_time desc""" % requests)
    counts = set()
    for _ in range(5):
        sql("select bench_stats.pg_stat_statements_reset()")
        post(query, variables, token)
        counts.add(statements())
    shown = " or ".join(f"{total} ({total - tx} + {tx} BEGIN/COMMIT)" for total, tx in sorted(counts))
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)]
    print(f"  {name:<44}{statistics.median(samples):>9.2f}{p99:>9.2f}{items:>7}  {shown}"
          + (f"; {with_files} with tags and files" if with_files != items else ""))
print(f"  ({requests} requests each after 20 warm-up; statements from pg_stat_statements, 5 single requests each;"
      f" load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
for name, listing in listings.items():
    print(f"  {name}: each statement, per request, with its mean planning and execution times:")
    for line in listing.splitlines():
        print("    " + line)
