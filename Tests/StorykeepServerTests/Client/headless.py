"""What the browser tests' helpers share: a free loopback port, and a page's DOM as headless
Chromium leaves it once its scripts ran (`--dump-dom` after `--virtual-time-budget`)."""

import socket
import subprocess
import tempfile


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
