#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""OpenMetrics out, Prometheus in (docs/exporting.md, docs/fleet.md).
`promtool check metrics` on tp-report --format=openmetrics of the committed
host, q35 and arm64 captures (headline and --all) and on a --textfile; then
a small fleet (the arm64 capture as three machines, one with a bad
cross-CPU bound, one with a quiet pre-OS scan, one of another CPU model,
and a run of hostile strings) backfilled with `promtool tsdb
create-blocks-from openmetrics` and read back from Debian's Prometheus,
started here on a free localhost port over its own storage and always
stopped: one figure of one run must come back equal to its record's value,
a hostile label value must come back as written, and docs/fleet.md's
three PromQL queries must name the machines the records say. Skips with
the reason when promtool or prometheus is missing or cannot start."""
import calendar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, ok, skip, done, records, write_log, tp_report, test_data  # noqa: E402

REPORT = tp_report()
DATA = test_data()
CAPTURES = {"host": "aa-host-1-a.log", "q35": "serial-q35-fingerprint.log",
	    "arm64": "serial-arm64-virt-quick.log"}
PROMTOOL = shutil.which("promtool")
PROMETHEUS = shutil.which("prometheus")
if not PROMTOOL:
	print("1..0 # SKIP promtool not installed (tools/deps.sh installs Debian's prometheus)")
	sys.exit(0)
tmp = tempfile.mkdtemp(prefix="timeprobe-prometheus.")
server = None


def stop_server(*_):
	"""Stops the Prometheus started here, whatever ends the test."""
	global server
	if server and server.poll() is None:
		server.terminate()
		try:
			server.wait(10)
		except subprocess.TimeoutExpired:
			server.kill()
			server.wait()
	server = None
	shutil.rmtree(tmp, ignore_errors=True)


def on_signal(sig, _frame):
	stop_server()
	sys.exit(128 + sig)


for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
	signal.signal(s, on_signal)


def report(*args):
	p = subprocess.run([REPORT] + list(args), capture_output=True, text=True)
	return p.returncode, p.stdout, p.stderr


def promtool_check(text):
	p = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True, text=True)
	return p.returncode == 0, p.stdout + p.stderr


def log_records(name):
	with open(os.path.join(DATA, name), encoding="utf-8", errors="replace") as f:
		return records(f.read())[0]


# --- promtool check metrics on the committed captures -----------------------
for what, name in sorted(CAPTURES.items()):
	for extra in ([], ["--all"]):
		rc, out, err = report("--format=openmetrics", *extra, os.path.join(DATA, name))
		good, why = promtool_check(out)
		# a name two keys of one probe would share is said on stderr
		ok(rc == 0 and good and out.endswith("# EOF\n") and "another key's" not in err,
		   "promtool check metrics accepts the %s capture%s" % (what, " with --all" if extra else ""),
		   why + err)

rc, out, _ = report("--format=openmetrics", os.path.join(DATA, CAPTURES["arm64"]))
names = {ln.split()[2] for ln in out.splitlines() if ln.startswith("# TYPE ")}
ok(names and all(n.startswith("timeprobe_") and not n.endswith("_total") for n in names),
   "every family is timeprobe_*, none a _total (all gauges)", sorted(names))
ok(all(ln.split()[3] == "gauge" for ln in out.splitlines() if ln.startswith("# TYPE ")),
   "every family is a gauge")
units = [ln.split() for ln in out.splitlines() if ln.startswith("# UNIT ")]
ok(units and all(u[2].endswith("_" + u[3]) for u in units), "each # UNIT is its name's suffix")
ok("timeprobe_verdict_tsc_offset_seconds" in names and "timeprobe_hwlat_preos_max_seconds" in names,
   "the verdict's items and the probes' figures are there")

nostart = write_log(os.path.join(tmp, "nostart.log"), [
	{"type": "run", "version": "0.1.0", "records_version": 1, "env": "os", "machine": "m"},
	{"type": "result", "probe": "clocks", "name": "x", "path": "vdso", "ns_per_call": 1.5}])
rc, out, err = report("--format=openmetrics", nostart, os.path.join(DATA, CAPTURES["host"]))
ok(rc == 1 and "nostart.log" in err and "no start time" in err and 'cpu_model="AMD EPYC"' in out
   and 'machine="m"' not in out, "a run without a start time is left out, said, exit 1; the rest written",
   err)

# --- the textfile for node_exporter ----------------------------------------
prom = os.path.join(tmp, "textfile", "timeprobe.prom")
os.makedirs(os.path.dirname(prom))
rc, out, err = report("--textfile=" + prom, os.path.join(DATA, CAPTURES["host"]))
text = open(prom).read() if os.path.exists(prom) else ""
good, why = promtool_check(text)
ok(rc == 0 and out == "" and good, "--textfile writes a file promtool accepts, nothing on stdout",
   why + err)
samples = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
ok(samples and all(ln.rsplit(" ", 1)[0].endswith("}") for ln in samples),
   "the textfile's samples carry no timestamp (node_exporter refuses them)", samples[:3])
ok(os.listdir(os.path.dirname(prom)) == ["timeprobe.prom"], "no temporary file left beside it",
   os.listdir(os.path.dirname(prom)))
ok(os.stat(prom).st_mode & 0o777 == 0o644, "readable by node_exporter's user (0644)")


# --- a fleet to backfill ------------------------------------------------------
def machine(recs, name, **changes):
	"""The capture's records as machine name: run's machine (and cpu_model)
	set, verdict items' values and hwlat's preos_max_ns as changes say."""
	out = []
	for r in recs:
		r = json.loads(json.dumps(r))
		if r["type"] == "run":
			r["machine"] = name
			r["cpu_model"] = changes.get("cpu_model", r["cpu_model"])
		if r["type"] == "verdict":
			for item, v in changes.get("verdict", {}).items():
				r["items"][item]["value"] = v
		if r["type"] == "result" and r.get("probe") == "hwlat" and "preos_max" in changes:
			for k in ("preos_max_ns", "preos_system_wide_max_ns"):
				if k in r:
					r[k] = changes["preos_max"]
		out.append(r)
	return out


arm = log_records(CAPTURES["arm64"])
start = next(r for r in arm if r["type"] == "run")["start"]
HOSTILE_MACHINE = 'rack "7" \\ row\n2 } x="1"'
HOSTILE_NAME = 'clock_gettime(CLOCK_MONOTONIC) # "q" \\ ü'
fleet = {
	"node-001": machine(arm, "node-001", preos_max=50000),
	"node-137": machine(arm, "node-137", verdict={"tsc_offset_ns": 2500}),
	"node-200": machine(arm, "node-200", preos_max=50000, cpu_model="Test CPU 9000",
			    verdict={"clock_read_ns": 25.5}),
}
hostile = [
	{"type": "run", "version": "0.1.0", "records_version": 1, "env": "os", "kernel": "k",
	 "cpu_model": "evil", "machine": HOSTILE_MACHINE, "start": start},
	{"type": "result", "probe": "clocks", "name": HOSTILE_NAME, "clock": "CLOCK_MONOTONIC",
	 "path": "vdso", "ns_per_call": 12.5},
	{"type": "end", "probes": 1, "records": 3},
]
files = [write_log(os.path.join(tmp, n + ".log"), recs) for n, recs in sorted(fleet.items())]
files.append(write_log(os.path.join(tmp, "hostile.log"), hostile))
files.append(os.path.join(DATA, CAPTURES["host"]))
rc, om, err = report("--format=openmetrics", *files)
good, why = promtool_check(om)
ok(rc == 0 and good, "the fleet's OpenMetrics passes promtool check metrics", why + err)
om_path = os.path.join(tmp, "fleet.om")
with open(om_path, "w") as f:
	f.write(om)
blocks = os.path.join(tmp, "tsdb")
p = subprocess.run([PROMTOOL, "tsdb", "create-blocks-from", "openmetrics", om_path, blocks],
		   capture_output=True, text=True)
ok(p.returncode == 0 and os.listdir(blocks), "promtool backfills it into blocks",
   p.stdout[-1500:] + p.stderr[-1500:])


# --- Prometheus over the blocks ----------------------------------------------
def free_port():
	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		return s.getsockname()[1]


def start_prometheus():
	"""Starts Prometheus over blocks; returns its URL, or None and why."""
	global server
	config = os.path.join(tmp, "prometheus.yml")
	with open(config, "w") as f:
		f.write("global:\n  scrape_interval: 1h\n")
	for _ in range(3):
		port = free_port()
		log = open(os.path.join(tmp, "prometheus.log"), "w")
		server = subprocess.Popen([PROMETHEUS, "--config.file=" + config,
					   "--storage.tsdb.path=" + blocks,
					   "--storage.tsdb.retention.time=100y",
					   "--web.listen-address=127.0.0.1:%d" % port],
					  stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
		url = "http://127.0.0.1:%d" % port
		deadline = time.monotonic() + 30
		while time.monotonic() < deadline and server.poll() is None:
			try:
				urllib.request.urlopen(url + "/-/ready", timeout=2).read()
				return url, None
			except OSError:
				time.sleep(0.2)
		stop = server.poll() is not None
		server.kill() if not stop else None
		server.wait()
		server = None
		with open(os.path.join(tmp, "prometheus.log")) as f:
			last = f.read().strip().splitlines()[-1:] or ["(no output)"]
		if not stop:
			return None, "not ready within 30 s: " + last[0]
	return None, "it exited: " + last[0]


def query(url, q, at):
	args = urllib.parse.urlencode({"query": q, "time": "%d" % at})
	with urllib.request.urlopen(url + "/api/v1/query?" + args, timeout=10) as r:
		ans = json.load(r)
	return ans["data"]["result"] if ans.get("status") == "success" else None


def promql_of_doc():
	"""docs/fleet.md's PromQL, in order: every ```promql block."""
	text = open(os.path.join(ROOT, "docs", "fleet.md")).read()
	return [b.split("```", 1)[0].strip() for b in text.split("```promql\n")[1:]]


def prometheus_tests(url):
	host = log_records(CAPTURES["host"])
	rec = next(r for r in host if r["type"] == "result" and r.get("probe") == "clocks"
		   and r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") == "vdso")
	t0 = calendar.timegm(time.strptime(start, "%Y-%m-%dT%H:%M:%SZ"))
	host_t = next(r for r in host if r["type"] == "run")["start"]
	host_t = calendar.timegm(time.strptime(host_t, "%Y-%m-%dT%H:%M:%SZ"))
	res = query(url, 'timeprobe_clocks_per_call_seconds{cpu_model="AMD EPYC",'
		    'result="clock_gettime(CLOCK_MONOTONIC)",path="vdso"}', host_t)
	got = float(res[0]["value"][1]) if res and len(res) == 1 else None
	ok(got == rec["ns_per_call"] * 1e-9,
	   "Prometheus gives back the record's ns_per_call (%r ns) as seconds" % rec["ns_per_call"],
	   "got %r from %r" % (got, res))
	ok(res and int(res[0]["value"][0]) == host_t, "at the run's start time", res)
	res = query(url, 'timeprobe_clocks_per_call_seconds{cpu_model="evil"}', t0)
	got = res[0]["metric"] if res and len(res) == 1 else {}
	ok(got.get("machine") == HOSTILE_MACHINE and got.get("result") == HOSTILE_NAME
	   and float(res[0]["value"][1]) == 12.5 * 1e-9, "hostile label values come back as written", res)
	queries = promql_of_doc()
	ok(len(queries) == 3, "docs/fleet.md has three PromQL queries", queries)
	if len(queries) != 3:
		return
	later = t0 + 3 * 3600  # past the 5 minutes a sample stays fresh: the queries look back
	want = [{"node-137"}, {"node-137"}, None]
	for i, q in enumerate(queries[:2]):
		res = query(url, q, later)
		got = {r["metric"].get("machine") for r in res or []}
		ok(got == want[i], "docs/fleet.md query %d names %s" % (i + 1, sorted(want[i])),
		   "%s\ngave %s" % (q, res))
	res = query(url, queries[2], later)
	got = {r["metric"].get("cpu_model"): float(r["value"][1]) for r in res or []}
	expect = {"unknown": 114.058824e-9, "Test CPU 9000": 25.5e-9}
	ok(got.keys() == expect.keys() and all(abs(got[k] - v) <= 1e-12 * v for k, v in expect.items()),
	   "docs/fleet.md query 3 gives the clock read cost by CPU model", "%s\ngave %s" % (queries[2], res))


try:
	if not PROMETHEUS:
		skip("Prometheus reads the backfilled figures", "prometheus not installed (tools/deps.sh)")
	else:
		url, why = start_prometheus()
		if url:
			prometheus_tests(url)
		else:
			skip("Prometheus reads the backfilled figures", "prometheus could not start: " + why)
finally:
	stop_server()
done()
