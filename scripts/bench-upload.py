#!/usr/bin/env python3
"""The upload figures of `make bench` (scripts/bench.sh): figures, never verdicts.

A young person uploads files with `uploadMedia` (the GraphQL multipart request) over one raw
socket each, as an app would, and the script prints, for each case, the time from the first
byte sent to the whole answer, the bytes the client had sent by then (into the socket: some may
still sit in its buffers, unread), and the rate at which the file was judged (file size / time
to answer, in MB/s of 1,000,000 bytes; for a refusal by Content-Length, only the headers were
read):

- a 25 MB file (just under the demo tenant's limit of 25 MiB), accepted and stored;
- the same size of CR LF - bytes after a PNG header, accepted: the worst content for a
  multipart parser that stops at every CR (multipart-kit's ran at 6 to 15 MB/s on it);
- a 26 MiB file with Content-Length, refused (413) before its body is read;
- the same sent chunked (no Content-Length), refused as soon as it passes the limit;
- a 110 MiB chunked file (above the server's ceiling too), refused the same way.

The body is sent while the answer is watched for, so an early answer stops the sending, as
curl and browsers do. Loopback only; each case runs --repeat times (the median is printed).

    scripts/bench-upload.py --base http://127.0.0.1:18080 --tenant demo --user bench-up --password '...' [--only 'chunked']
"""
import argparse
import json
import os
import select
import socket
import statistics
import time
import urllib.parse
import urllib.request

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
BOUNDARY = b"bench-upload-boundary-7f3a"
QUERY = "mutation($f: Upload!) { uploadMedia(file: $f) { id byteSize sha256 } }"
PNG_MAGIC = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])


def login(base, tenant, user, password):
    body = json.dumps({"query": "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }",
                       "variables": {"u": user, "p": password}}).encode()
    request = urllib.request.Request(f"{base}/t/{tenant}/graphql", body, {"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        answer = json.load(response)
    token = ((answer.get("data") or {}).get("login") or {}).get("token")
    if not token:
        raise SystemExit(f"bench-upload: cannot log in as {user}: {answer}")
    return token


def multipart(payload):
    """The envelope before and after the file's bytes."""
    operations = json.dumps({"query": QUERY, "variables": {"f": None}}).encode()
    head = (b"--" + BOUNDARY + b'\r\nContent-Disposition: form-data; name="operations"\r\n\r\n' + operations +
            b"\r\n--" + BOUNDARY + b'\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f"]}' +
            b"\r\n--" + BOUNDARY +
            b'\r\nContent-Disposition: form-data; name="0"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n')
    return head, b"\r\n--" + BOUNDARY + b"--\r\n"


def upload(host, port, path, token, payload, chunked, piece=256 * 1024):
    """Sends one upload; returns (seconds to the whole answer, bytes sent, status, answer JSON)."""
    head, tail = multipart(payload)
    headers = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}", f"Authorization: Bearer {token}",
               f"Content-Type: multipart/form-data; boundary={BOUNDARY.decode()}", "GraphQL-Require-Preflight: 1"]
    headers.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(head) + len(payload) + len(tail)}")
    pieces = [head] + [memoryview(payload)[i:i + piece] for i in range(0, len(payload), piece)] + [tail]
    if chunked:
        pieces = [b"%x\r\n" % len(p) + bytes(p) + b"\r\n" for p in pieces] + [b"0\r\n\r\n"]
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    received = b""
    sent = 0
    start = time.perf_counter()
    sock.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
    for p in pieces:
        readable, _, _ = select.select([sock], [], [], 0)
        if readable:
            break  # the server answered early: stop sending, as curl does
        sock.sendall(p)
        sent += len(p)
    status, answer = read_response(sock, received)
    took = time.perf_counter() - start
    sock.close()
    return took, sent, status, answer


def read_response(sock, received):
    sock.settimeout(300)
    while b"\r\n\r\n" not in received:
        data = sock.recv(65536)
        if not data:
            raise SystemExit("bench-upload: the server closed the connection without an answer")
        received += data
    head, body = received.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(l.split(":", 1)[1]) for l in lines[1:] if l.lower().startswith("content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return status, json.loads(body[:length])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("--tenant", default="demo")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="run only the cases whose label contains this text")
    parser.add_argument("--label", default="", help="said in the heading (the build, the machine)")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base)
    if url.hostname not in LOOPBACK and not url.hostname.startswith("127."):
        raise SystemExit(f"bench-upload: {args.base} is not a loopback address")
    token = login(args.base, args.tenant, args.user, args.password)
    path = f"/t/{args.tenant}/graphql"
    mib = 1 << 20
    cases = [
        ("25 MB accepted", 25_000_000, False, 200),
        ("25 MB of CR LF bytes, accepted", 25_000_000, False, 200),
        ("26 MiB refused by Content-Length", 26 * mib, False, 413),
        ("26 MiB chunked, refused while streaming", 26 * mib, True, 413),
        ("110 MiB chunked, refused while streaming", 110 * mib, True, 413),
    ]
    print(f"Uploads (uploadMedia, demo tenant limit 25 MiB; median of {args.repeat}; MB/s = file size / time to answer, "
          f"1 MB = 10^6 bytes){': ' + args.label if args.label else ''}")
    for label, size, chunked, expected in cases:
        if args.only not in label:
            continue
        filler = (b"\r\n-" * (size // 3 + 1))[:size - len(PNG_MAGIC)] if "CR LF" in label else os.urandom(size - len(PNG_MAGIC))
        payload = PNG_MAGIC + filler
        runs = [upload(url.hostname, url.port, path, token, payload, chunked) for _ in range(args.repeat)]
        took = statistics.median(r[0] for r in runs)
        sent = statistics.median(r[1] for r in runs)
        statuses = sorted({r[2] for r in runs})
        note = "" if statuses == [expected] else f"  (expected {expected}; answer: {json.dumps(runs[-1][3])[:200]})"
        print(f"  {label:<42} status {','.join(map(str, statuses))}, answer after {took * 1000:8.1f} ms, "
              f"{sent / 1e6:6.1f} MB sent, {size / 1e6 / took:10.1f} MB/s{note}")


if __name__ == "__main__":
    main()
