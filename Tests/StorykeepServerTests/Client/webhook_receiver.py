#!/usr/bin/env python3
"""A webhook receiver for WebhooksHTTPTests.swift: Python's http.server, checking each message's
Standard Webhooks signature with Python's own hmac, independently of the server's code.

    python3 webhook_receiver.py SECRET LOG

Listens on a free port of 127.0.0.1 and prints `port <n>` once it does. SECRET is the signing
secret (`whsec_<base64>`). Each POST is appended to the file LOG as one JSON line:
{"path", "id", "timestamp", "verified", "body", "answered"} (`verified`: the signature checked out;
`answered`: the status it was given), before the answer is sent. What a path answers:

- `/fail-<n>/...`: 500 to its first n requests, then 204;
- `/down/...`: 503, always;
- anything else: 204.

It stops when its standard input closes.
"""

import base64
import hashlib
import hmac
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1]
LOG = sys.argv[2]
KEY = base64.b64decode(SECRET[len("whsec_"):])
counts = {}
lock = threading.Lock()


def verified(message_id, timestamp, body, header):
    """Whether one of the `v1,<base64>` signatures of `header` signs `id.timestamp.body`."""
    signed = message_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest()).decode()
    return any(
        part.startswith("v1,") and hmac.compare_digest(part[3:], expected) for part in header.split(" ")
    )


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        with lock:
            counts[self.path] = counts.get(self.path, 0) + 1
            seen = counts[self.path]
        first = self.path.strip("/").split("/")[0]
        if first.startswith("fail-"):
            answer = 500 if seen <= int(first[len("fail-"):]) else 204
        elif first == "down":
            answer = 503
        else:
            answer = 204
        message_id = self.headers.get("webhook-id", "")
        timestamp = self.headers.get("webhook-timestamp", "")
        record = {
            "path": self.path,
            "id": message_id,
            "timestamp": timestamp,
            "verified": verified(message_id, timestamp, body, self.headers.get("webhook-signature", "")),
            "body": body.decode("utf-8", "replace"),
            "answered": answer,
        }
        with lock, open(LOG, "a") as log:
            log.write(json.dumps(record) + "\n")
        self.send_response(answer)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"port {server.server_address[1]}", flush=True)
sys.stdin.read()
server.shutdown()
