#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/fleet.md's last step, for real: Debian's node_exporter serving a
textfile folder and Prometheus scraping it, each on a free 127.0.0.1 port
with its own storage, both always stopped.

    scrape.py DIR RECORDS

DIR is the textfile folder (node_exporter's --collector.textfile.directory),
RECORDS the TP1 records of the run that wrote it. Exit status 0 when
node_exporter serves the textfile and the timeprobe_clocks_per_call_seconds
Prometheus scraped for CLOCK_MONOTONIC's vDSO read equals that record's
ns_per_call (1e-9 s each); 1 when not (why on stdout); 77 with the reason
on stdout when either program is missing or cannot start (a skip)."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from tp1rec import records  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from labserve import free_port, stop  # noqa: E402

METRIC = "timeprobe_clocks_per_call_seconds"
SKIP = 77


def wait_ready(proc, url, secs=30):
    """True once url answers; False when proc exits or secs pass."""
    deadline = time.monotonic() + secs
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return True
        except OSError:
            time.sleep(0.2)
    return False


def start(argv, url, log):
    """Starts argv, waits for url; the process, or None and its last line."""
    with open(log, "w") as f:
        proc = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if wait_ready(proc, url):
        return proc, None
    stop(proc)
    with open(log) as f:
        last = f.read().strip().splitlines()[-1:] or ["(no output)"]
    return None, last[0]


def query(url, q):
    args = urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(url + "/api/v1/query?" + args, timeout=10) as r:
        ans = json.load(r)
    return ans["data"]["result"] if ans.get("status") == "success" else []


def main():
    folder, recfile = sys.argv[1], sys.argv[2]
    node_exporter = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    prometheus = shutil.which("prometheus")
    if not node_exporter or not prometheus:
        print("%s not installed (Debian's prometheus and prometheus-node-exporter; tools/deps.sh)"
              % ("node_exporter" if not node_exporter else "prometheus"))
        return SKIP
    recs = records(open(recfile, encoding="utf-8", errors="replace").read())[0]
    rec = next((r for r in recs if r.get("type") == "result" and r.get("probe") == "clocks"
                and r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") == "vdso"
                and "round" not in r), None)
    tmp = tempfile.mkdtemp(prefix="tp-scrape.")
    ne = pr = None
    try:
        ne_port = free_port()
        ne, why = start([node_exporter, "--web.listen-address=127.0.0.1:%d" % ne_port,
                         "--collector.disable-defaults", "--collector.textfile",
                         "--collector.textfile.directory=" + folder],
                        "http://127.0.0.1:%d/metrics" % ne_port, os.path.join(tmp, "ne.log"))
        if not ne:
            print("node_exporter did not start: %s" % why)
            return SKIP
        with open(os.path.join(tmp, "prometheus.yml"), "w") as f:
            f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: node\n"
                    "    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % ne_port)
        port = free_port()
        url = "http://127.0.0.1:%d" % port
        pr, why = start([prometheus, "--config.file=" + os.path.join(tmp, "prometheus.yml"),
                         "--storage.tsdb.path=" + os.path.join(tmp, "data"),
                         "--web.listen-address=127.0.0.1:%d" % port], url + "/-/ready",
                        os.path.join(tmp, "prometheus.log"))
        if not pr:
            print("prometheus did not start: %s" % why)
            return SKIP
        q = '%s{result="clock_gettime(CLOCK_MONOTONIC)",path="vdso"}' % METRIC
        got = []
        deadline = time.monotonic() + 60
        while not got and time.monotonic() < deadline:
            got = query(url, q)
            if not got:
                time.sleep(0.5)
        served = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % ne_port, timeout=10).read()
        value = float(got[0]["value"][1]) if len(got) == 1 else None
        want = rec["ns_per_call"] * 1e-9 if rec else None
        print("node_exporter serves %s: %s" % (METRIC, METRIC.encode() in served))
        print("Prometheus scraped %s: %s; its record: %s ns" % (q, value, rec and rec["ns_per_call"]))
        good = (METRIC.encode() in served and value is not None and want is not None
                and abs(value - want) <= 1e-12 * want)
        return 0 if good else 1
    finally:
        stop(pr)
        stop(ne)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
