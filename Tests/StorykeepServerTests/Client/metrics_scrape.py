"""Scrapes a Prometheus text endpoint and parses it with prometheus-client's parser.

    python3 metrics_scrape.py <url> <output file> [bearer token] [X-Forwarded-For]

Prints the HTTP status; on 200, writes to the output file one JSON list of the samples of the
`storykeep_` families: {"name", "labels", "value"}, as the parser reads them.
"""

import json
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

headers = {}
if len(sys.argv) > 3 and sys.argv[3]:
    headers["authorization"] = "Bearer " + sys.argv[3]
if len(sys.argv) > 4 and sys.argv[4]:
    headers["x-forwarded-for"] = sys.argv[4]
try:
    with urllib.request.urlopen(urllib.request.Request(sys.argv[1], headers=headers), timeout=30) as response:
        text = response.read().decode()
        print(response.status)
except urllib.error.HTTPError as error:
    print(error.code)
    sys.exit(0)
samples = [
    {"name": s.name, "labels": s.labels, "value": s.value}
    for family in text_string_to_metric_families(text)
    if family.name.startswith("storykeep_")
    for s in family.samples
]
with open(sys.argv[2], "w") as out:
    json.dump(samples, out)
