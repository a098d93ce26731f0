"""The explorer in headless Chromium, its React and GraphiQL served from a local folder.

    python3 explorer_browser.py free-port
        prints a free loopback port for the assets' server.
    python3 explorer_browser.py digests
        prints one JSON object: the SHA-384 Subresource Integrity value of each React file of the
        local copy (`sha384-...`), to compare with the hashes the page pins for the CDN.
    python3 explorer_browser.py run <explorer url> <assets port>
        serves the local copy at http://127.0.0.1:<assets port>/graphiql/ (as an agency hosting
        its own files would, with `Access-Control-Allow-Origin: *` for the page's `crossorigin`
        elements), opens <explorer url> and prints one JSON object: `rendered` (GraphiQL's
        container is in the page), `loading` (the page's placeholder text is still there) and
        `requested` (the asset paths the browser asked for).

The local copy is the one PyPI's graphene-django-graphiql-static ships (React 17.0.2, GraphiQL
2), installed by scripts/deps.sh --python without its dependencies. The outcome is read from the
page's DOM (`--dump-dom`, after `--virtual-time-budget` lets the scripts run).
"""

import base64
import hashlib
import importlib.util
import json
import os
import sys

from headless import dom_after_scripts, free_port, serve

REACT_FILES = ("react.production.min.js", "react-dom.production.min.js")


def assets_folder():
    spec = importlib.util.find_spec("graphene_django_graphiql_static")
    if spec is None:
        raise SystemExit("graphene-django-graphiql-static is not installed (scripts/deps.sh --python)")
    return os.path.join(spec.submodule_search_locations[0], "static", "graphene_django_graphiql_static")


def digests():
    folder = assets_folder()
    out = {}
    for name in REACT_FILES:
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = "sha384-" + base64.b64encode(hashlib.sha384(f.read()).digest()).decode()
    return out


def serve_assets(port, folder, requested):
    types = {".js": "text/javascript", ".css": "text/css"}

    def answer(path):
        requested.append(path)
        name = path.removeprefix("/graphiql/")
        file = os.path.join(folder, name)
        if "/" in name or not os.path.isfile(file):
            return None
        with open(file, "rb") as f:
            body = f.read()
        content_type = types.get(os.path.splitext(name)[1], "application/octet-stream")
        return body, [("content-type", content_type), ("access-control-allow-origin", "*")]

    return serve(port, answer)


def run(url, port):
    requested = []
    server = serve_assets(port, assets_folder(), requested)
    try:
        dom = dom_after_scripts(url)
    finally:
        server.shutdown()
    return {"rendered": "graphiql-container" in dom, "loading": "Loading the GraphQL explorer" in dom,
            "requested": sorted(set(requested))}


def main():
    if sys.argv[1] == "free-port":
        print(free_port())
    elif sys.argv[1] == "digests":
        print(json.dumps(digests()))
    else:
        print(json.dumps(run(sys.argv[2], int(sys.argv[3]))))


main()
