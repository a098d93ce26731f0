"""The case-management export's figures (issue 14), as a client sees them over HTTP: every shared
entry, with its document, pulled from a cursor of zero, in pages of 500 (entries per second); then
the cost of one poll that finds nothing new (p50/p99), on one kept-alive connection, and the SQL
statements each runs. Called by scripts/bench-export.sh with the server's base URL, the tenant,
its admin's email and password, and how many empty polls to time.
"""
import base64, http.client, json, sys, time, urllib.parse

sys.path.insert(0, "scripts")
from bench_http import GraphQL, sql, statements_per_request, timed  # noqa: E402

base, slug, admin, password, polls = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
client = GraphQL(base, slug)

admin_token = client.login(admin, password, "export")
status, answer = client.post('mutation { createCmsClient(name: "Bench CMS") { client { id } clientSecret } }', token=admin_token)
created = (answer.get("data") or {}).get("createCmsClient") or sys.exit(f"export bench: createCmsClient: HTTP {status} {answer}")

# OAuth 2.0 client credentials, as a case management system asks for its token.
url = urllib.parse.urlparse(base)
oauth = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
basic = base64.b64encode(f"{created['client']['id']}:{created['clientSecret']}".encode()).decode()
oauth.request("POST", f"/t/{slug}/oauth/token", body="grant_type=client_credentials",
              headers={"Content-Type": "application/x-www-form-urlencoded", "Authorization": f"Basic {basic}"})
response = oauth.getresponse()
token = json.loads(response.read()).get("access_token") or sys.exit(f"export bench: no token: HTTP {response.status}")

fields = """id revision date kind text mood tags background createdAt updatedAt youngPerson { id externalRef displayName }
  sharedWith { person { id displayName } relationship sharedAt message } media { id contentType byteSize sha256 url }
  document { html }"""
changes = ("query($after: String, $first: Int) { export { changes(after: $after, first: $first) {"
           f" items {{ op sequence entryId entry {{ {fields} }} }} cursor hasMore }} }} }}")


def pull(after, first=500):
    status, answer = client.post(changes, {"after": after, "first": first}, token=token)
    page = ((answer.get("data") or {}).get("export") or {}).get("changes")
    if status != 200 or answer.get("errors") or page is None:
        sys.exit(f"export bench: a pull failed: HTTP {status} {str(answer)[:500]}")
    return page


# The whole feed from zero.
sql("select bench_stats.pg_stat_statements_reset()")
cursor, entries, tombstones, pages, html_bytes, media = None, 0, 0, 0, 0, 0
started = time.perf_counter()
while True:
    page = pull(cursor)
    pages += 1
    for item in page["items"]:
        if item["entry"]:
            entries += 1
            html_bytes += len(item["entry"]["document"]["html"])
            media += len(item["entry"]["media"])
        else:
            tombstones += 1
    cursor = page["cursor"]
    if not page["hasMore"]:
        break
seconds = time.perf_counter() - started
print(f"  the feed from a cursor of zero: {entries:,} entries ({media:,} files; {tombstones} tombstones) in {pages} pages of 500,"
      f" {seconds:.1f} s: {entries / seconds:,.0f} entries/s with documents ({html_bytes / entries / 1024:.1f} KiB of HTML each)"
      f" (target: 5,000/s)")
print("  its statements by total time (pg_stat_statements, the server's role):")
print("\n".join("    " + line for line in sql("""
    select lpad(to_char(total_exec_time, 'FM999990.0'), 9) || ' ms ' || lpad(calls::text, 6) || ' calls  '
           || left(regexp_replace(query, '\\s+', ' ', 'g'), 110)
    from bench_stats.pg_stat_statements s join pg_roles r on r.oid = s.userid
    where r.rolname = 'storykeep_app' order by total_exec_time desc limit 8""").splitlines()))

# A poll that finds nothing new: the client's routine every few seconds.
samples = timed(lambda: client.post(changes, {"after": cursor, "first": 500}, token=token), polls, "export", "empty poll")
if any(pull(cursor)["items"]):
    sys.exit("export bench: the polls were not empty")
p50, p99 = samples[len(samples) // 2], samples[int(len(samples) * 0.99) - 1]
print(f"  one empty poll (changes after the end, with a client's token): {polls} polls, p50 {p50:.2f} ms, p99 {p99:.2f} ms"
      f" (target: p99 < 5 ms); statements each: {statements_per_request(lambda: client.post(changes, {'after': cursor}, token=token))}")
