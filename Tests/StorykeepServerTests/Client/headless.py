"""What the browser tests' helpers share: a free loopback port, a quiet server of the files a
page loads, and a page's DOM as headless Chromium leaves it once its scripts ran (`--dump-dom`
after `--virtual-time-budget`)."""

import http.server
import socket
import subprocess
import tempfile
import threading


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dom_after_scripts(url):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--virtual-time-budget=15000", "--dump-dom", url],
            capture_output=True, text=True, timeout=90).stdout


def serve(port, answer):
    """Serves GET on 127.0.0.1:<port> from a daemon thread, logging nothing: `answer(path)` gives
    the body (bytes) and the headers (name, value pairs, before content-length) of a 200, or None
    for a 404. The caller shuts the server down."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            found = answer(self.path)
            if found is None:
                self.send_error(404)
                return
            body, headers = found
            self.send_response(200)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
