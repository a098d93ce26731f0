"""A browser app on another origin, in headless Chromium, logs in and asks who it is.

    python3 cors_browser.py free-port
        prints a free loopback port for the page's server.
    python3 cors_browser.py run <graphql url> <page port> <username> <password> <host>...
        serves the app's page on 127.0.0.1:<page port> and opens it once per <host>
        (http://<host>:<page port>/, so `localhost` and `127.0.0.1` are two origins);
        prints one JSON object: each host's outcome as the page wrote it, `ok <person id>`
        when its script could read both answers, `blocked <error>` when the browser refused.

The outcome is read from the page's DOM (`--dump-dom`, after `--virtual-time-budget` lets the
script's requests finish).
"""

import html
import json
import re
import sys

from headless import dom_after_scripts, free_port, serve

PAGE = """<!doctype html>
<html><body><pre id="result">pending</pre><script>
const api = %(api)s;
async function ask(query, variables, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["authorization"] = "Bearer " + token;
  const response = await fetch(api, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  return response.json();
}
(async () => {
  const out = document.getElementById("result");
  try {
    const login = await ask("mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }",
                            { u: %(username)s, p: %(password)s });
    const me = await ask("{ me { id } }", {}, login.data.login.token);
    out.textContent = "ok " + me.data.me.id;
  } catch (error) {
    out.textContent = "blocked " + error.name;
  }
})();
</script></body></html>
"""


def serve_page(port, page):
    body = page.encode()
    return serve(port, lambda path: (body, [("content-type", "text/html; charset=utf-8")]))


def outcome(url):
    dom = dom_after_scripts(url)
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    return html.unescape(found.group(1)) if found else "no page: " + dom[:200]


def main():
    if sys.argv[1] == "free-port":
        print(free_port())
        return
    api, port, username, password, hosts = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6:]
    page = PAGE % {"api": json.dumps(api), "username": json.dumps(username), "password": json.dumps(password)}
    server = serve_page(port, page)
    try:
        print(json.dumps({host: outcome("http://%s:%d/" % (host, port)) for host in hosts}))
    finally:
        server.shutdown()


main()
