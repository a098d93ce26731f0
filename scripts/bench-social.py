#!/usr/bin/env python3
"""The social module over HTTP, for scripts/bench-social.sh (which seeds the database and starts
the server):

1. 1,000 concurrent createPost: one connection per person opened first (each with its own
   bearer token, made beforehand), then every request released at once by a barrier; each
   request's time from its release to its answer. All must succeed; p50, p95 and p99.
2. The timeline's first page (20 posts with author, files, reactions and comment count) for the
   person with the friends, REQUESTS times on one kept-alive connection: p50 and p99, and the SQL
   statements one request runs (pg_stat_statements).

    bench-social.py BASE_URL SLUG TOKENS_FILE [REQUESTS]

BENCH_PSQL is the command line of a superuser psql on the bench cluster.
"""
import http.client, json, os, statistics, sys, threading, time, urllib.parse

from bench_http import GraphQL, load_line, p50_p99, sql, statements_per_request, timed

base, slug, tokens_file = sys.argv[1:4]
requests = int(sys.argv[4]) if len(sys.argv) > 4 else 500
tokens = open(tokens_file).read().split()
url = urllib.parse.urlparse(base)

CREATE = """mutation Post($i: PostInput!) { createPost(input: $i) { id status createdAt } }"""
TIMELINE = """query Timeline($first: Int!) { timeline(first: $first) { edges { cursor node { id text link visibility status createdAt edited
  author { personId displayName } media { id url } reactions { kind count mine } myReaction commentCount } }
  pageInfo { hasNextPage endCursor } } }"""


def percentile(samples, fraction):
    return samples[max(0, int(len(samples) * fraction) - 1)]


# 1. Everyone posts at once.
barrier = threading.Barrier(len(tokens) + 1)
results = [None] * len(tokens)


def writer(index, token):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    connection.connect()
    body = json.dumps({"query": CREATE, "variables": {"i": {"text": f"All at once, {index}", "visibility": "AGENCY"}}})
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    barrier.wait()
    started = time.perf_counter()
    try:
        connection.request("POST", f"/t/{slug}/graphql", body=body, headers=headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"{}")
        ok = response.status == 200 and not answer.get("errors") and answer["data"]["createPost"]["status"] == "PUBLISHED"
        results[index] = ((time.perf_counter() - started) * 1000, ok, None if ok else f"HTTP {response.status} {json.dumps(answer)[:200]}")
    except Exception as error:  # a refused or dropped connection is a failure to report, not a crash
        results[index] = ((time.perf_counter() - started) * 1000, False, repr(error))
    finally:
        connection.close()


threading.stack_size(256 * 1024)
threads = [threading.Thread(target=writer, args=(i, t)) for i, t in enumerate(tokens)]
for thread in threads:
    thread.start()
barrier.wait()
released = time.perf_counter()
for thread in threads:
    thread.join()
wall = time.perf_counter() - released
failures = [r[2] for r in results if not r[1]]
samples = sorted(r[0] for r in results)
print(f"  {len(tokens)} concurrent createPost (one person and connection each, released together):"
      f" {len(tokens) - len(failures)} succeeded, {len(failures)} failed, all answered in {wall:.2f} s")
print(f"    p50 {statistics.median(samples):.0f} ms, p95 {percentile(samples, 0.95):.0f} ms, p99 {percentile(samples, 0.99):.0f} ms,"
      f" max {samples[-1]:.0f} ms (target: p95 < 2,000 ms); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
for failure in failures[:5]:
    print(f"    failed: {failure}")

# 2. The timeline of the person with the friends (the first token's).
graphql = GraphQL(base, slug)
reader = tokens[0]
status, answer = graphql.post(TIMELINE, {"first": 20}, reader)
if status != 200 or answer.get("errors"):
    sys.exit(f"social bench: timeline: HTTP {status} {json.dumps(answer)[:300]}")
items = len(answer["data"]["timeline"]["edges"])
send = lambda: graphql.post(TIMELINE, {"first": 20}, reader)
samples = timed(send, requests, "social", "timeline", reset=True)
p50, p99 = p50_p99(samples)
print(f"  {'timeline, first 20 (bench-1: 200 friends)':<44}{'p50 ms':>9}{'p99 ms':>9}{'items':>7}  SQL statements per request")
print(f"  {'':<44}{p50:>9.2f}{p99:>9.2f}{items:>7}  {statements_per_request(send)}  (target: p99 < 30 ms idle)")
print(load_line(requests))
# Where one timeline request's time goes in the database.
sql("select bench_stats.pg_stat_statements_reset()")
send()
print("  one timeline request, each statement with its planning and execution time:")
for line in sql("""select calls || ' x plan ' || to_char(mean_plan_time, 'FM990.000') || ' ms, run ' || to_char(mean_exec_time, 'FM990.000')
                          || ' ms: ' || regexp_replace(left(query, 90), '\\s+', ' ', 'g')
                   from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
                   where r.rolname = 'storykeep_app' order by mean_plan_time + mean_exec_time desc""").splitlines():
    print("    " + line)
post = lambda: graphql.post(CREATE, {"i": {"text": "One more", "visibility": "FRIENDS"}}, tokens[1])
print(f"  one createPost: {statements_per_request(post)} SQL statements")
if failures:
    sys.exit(1)
