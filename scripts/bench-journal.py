#!/usr/bin/env python3
"""The journal's requests over HTTP, for scripts/bench-journal.sh (which seeds the database and
starts the server): p50 and p99 of the first page, a search, a month of the calendar and
createEntry with one tag, each a GraphQL request to /t/<slug>/graphql with a bearer token, on one kept-alive connection; and the SQL
statements each request ran, from pg_stat_statements (reset before a single request, then the
`calls` of the server's role summed), at page sizes 20 and 100.

    bench-journal.py BASE_URL SLUG USERNAME PASSWORD MONTH QUERY [REQUESTS]

BENCH_PSQL is the command line of a superuser psql on the bench cluster (pg_stat_statements in
the schema bench_stats). Exit status 3: the server's schema has no journal API (yet).
"""
import json, os, sys, time

from bench_http import GraphQL, load_line, p50_p99, sql, statements_per_request, timed

base, slug, username, password, month, search = sys.argv[1:7]
requests = int(sys.argv[7]) if len(sys.argv) > 7 else 500
graphql = GraphQL(base, slug)
post = graphql.post

FIRST_PAGE = """query FirstPage($first: Int!) { entries(first: $first) { edges { cursor node { id date kind text mood background createdAt tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }"""
SEARCH = """query Search($q: String!, $first: Int!) { search(query: $q, first: $first) { edges { node { id date kind text tags { id name } } } pageInfo { hasNextPage endCursor } } }"""
MONTH = """query Month($month: String!) { calendar(month: $month) { date entryCount moods } }"""

token = graphql.login(username, password, "journal")

cases = [
    ("first page, 20 entries", FIRST_PAGE, {"first": 20}),
    ("first page, 100 entries", FIRST_PAGE, {"first": 100}),
    (f'search "{search}", 20 entries', SEARCH, {"q": search, "first": 20}),
    (f'search "{search}", 100 entries', SEARCH, {"q": search, "first": 100}),
    (f"calendar {month}", MONTH, {"month": month}),
    # Not a target: a word nobody wrote, so the search reads the person's whole journal (the GIN
    # index cannot serve a match under row-level security, see Migrations/0003_journals.sql).
    ('search "zebra" (no match), 20 entries', SEARCH, {"q": "zebra", "first": 20}),
]

# Does this build serve the journal API?
status, answer = post(FIRST_PAGE, {"first": 1}, token)
if answer.get("errors") and not answer.get("data"):
    print(f"  the server has no journal API yet: {answer['errors'][0].get('message')}")
    sys.exit(3)

# A write last (it adds to the journal the reads above measured): createEntry with one tag of the
# person's, as an app writes a day's entry.
status, answer = post('mutation($n: String!) { createTag(name: $n) { id } }', {"n": f"bench {time.time_ns()}"}, token)
tag = ((answer.get("data") or {}).get("createTag") or {}).get("id")
if tag:
    CREATE = """mutation Write($i: EntryInput!) { createEntry(input: $i) { id date kind text tags { id name } } }"""
    cases.append(("createEntry, one tag", CREATE,
                  {"i": {"date": f"{month}-15", "kind": "TEXT", "text": "Scored twice at football practice", "tagIds": [tag]}}))


count = os.environ.get("BENCH_COUNT", "1") != "0"
listing = ""
print(f"  {'request (GraphQL over HTTP, kept-alive connection)':<44}{'p50 ms':>9}{'p99 ms':>9}{'items':>7}  SQL statements per request")
for name, query, variables in cases:
    status, answer = post(query, variables, token)
    if status != 200 or answer.get("errors"):
        print(f"  {name:<44} failed: HTTP {status} {json.dumps(answer)[:300]}")
        continue
    data = next(iter(answer["data"].values()))
    items = len(data["edges"]) if isinstance(data, dict) and "edges" in data else len(data)
    send = lambda: post(query, variables, token)
    samples = timed(send, requests, "journal", name)
    statements = statements_per_request(send) if count else "not counted"
    if count and name == cases[0][0]:
        listing = sql("""select calls || ' x ' || regexp_replace(left(query, 90), '\s+', ' ', 'g')
                         from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                         where r.rolname = 'storykeep_app' order by query""")
    p50, p99 = p50_p99(samples)
    print(f"  {name:<44}{p50:>9.2f}{p99:>9.2f}{items:>7}  {statements}")
print(load_line(requests))
if count:
    print("  the statements of one first page (20):")
    for line in listing.splitlines():
        print("    " + line)
