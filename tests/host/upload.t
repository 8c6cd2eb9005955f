#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""--upload and --push against real servers on 127.0.0.1 only (docs/lab.md):
Debian's nginx (a private configuration in a scratch folder: WebDAV PUT,
create_full_put_path) and prometheus-pushgateway, each on a free port,
always stopped. A quick clocks run uploads its records file, which nginx
must store byte for byte at PATH/<machine id>/0001.tp1 (a second upload:
0002.tp1), every CRC good; the Pushgateway's /metrics must hold the
verdict's clock read cost for that machine, equal to the record's value.
A stopped server, a 404, a 500 and a server that never answers each give
one failed `upload` record, exit 1 and the records file intact, within the
announced limit. Then 200 concurrent `timeprobe upload`s of real captures
(the same client code), bounded in time, must all arrive intact; their
time is a diagnostic (docs/benchmarks.md). Skips with the reason when
either server is missing or cannot start."""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BUILD, ROOT, diag, done, ok, records, test_data  # noqa: E402
from labserve import NGINX, PUSHGW, free_port, start_nginx, start_pushgateway, stop_all, stop_on_signals  # noqa: E402

TIMEPROBE = os.path.join(BUILD, "timeprobe")
LIMIT_S = 60		# userland/upload.h UPLOAD_LIMIT_S: one transfer's announced limit
LOAD_N = 200
LOAD_LIMIT_S = 120	# the whole load test: the bound that fails it
tmp = tempfile.mkdtemp(prefix="timeprobe-upload.")
stop_on_signals(tmp)


def run(name, *opts):
	"""A quick clocks run with its records in a file: (exit, stdout, file bytes, seconds)."""
	rec = os.path.join(tmp, name + ".tp1")
	t0 = time.monotonic()
	p = subprocess.run([TIMEPROBE, "run", "--probes=clocks", "--profile=quick", "--records=" + rec]
			   + list(opts), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
			   timeout=600)
	with open(rec, "rb") as f:
		data = f.read()
	return p.returncode, p.stdout, data, time.monotonic() - t0


def uploads(text):
	return [r for r in records(text)[0] if r["type"] == "upload"]


def machine_id(data):
	"""The run record's machine_id; "unknown" for a capture older than it (userland/upload.c)."""
	return next(r for r in records(data.decode())[0] if r["type"] == "run").get("machine_id", "unknown")


def check_stored(port, www, push_port):
	url = "http://127.0.0.1:%d/results/" % port
	rc, out, data, _ = run("good", "--upload=" + url, "--push=http://127.0.0.1:%d" % push_port)
	mid = machine_id(data)
	stored = os.path.join(www, "results", mid, "0001.tp1")
	ok(rc == 0, "a run with --upload and --push exits 0", out[-2000:])
	ok(os.path.exists(stored) and open(stored, "rb").read() == data,
	   "nginx stored the records file byte for byte at results/<machine id>/0001.tp1")
	recs, corrupt = records(open(stored, "rb").read().decode()) if os.path.exists(stored) else ([], 1)
	ok(recs and not corrupt, "every record of the stored file has a good CRC (%d records)" % len(recs))
	up = uploads(out)
	ok(len(up) == 2 and up[0]["what"] == "results" and up[0]["ok"] and up[0]["status"] == 201
	   and up[0]["bytes"] == len(data) and up[0]["tries"] == 1, "its upload record: 201, the bytes, 1 try", up)
	ok(re.search(r"^upload: 201 Created http://127\.0\.0\.1:%d/results/%s/0001\.tp1$" % (port, mid), out, re.M),
	   "its console line")
	ok(not uploads(data.decode()), "no upload record inside the file it reports on")
	verdict = next((r for r in recs if r["type"] == "verdict"), {})
	want = (verdict.get("items", {}).get("clock_read_ns", {}).get("value") or 0) * 1e-9
	body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % push_port, timeout=10).read().decode()
	got = [float(m.group(1)) for m in re.finditer(
		r'^timeprobe_verdict_clock_read_seconds\{[^}]*instance="%s"[^}]*\} (\S+)$' % mid, body, re.M)]
	ok(len(got) == 1 and abs(got[0] - want) <= 1e-9 * abs(want),
	   "the Pushgateway holds the verdict's clock read cost for this machine (%s, record %r)" % (got, want))
	rc, out, data, _ = run("again", "--upload=" + url)
	ok(rc == 0 and open(os.path.join(www, "results", mid, "0002.tp1"), "rb").read() == data,
	   "a second run goes to 0002.tp1, 0001.tp1 kept")


def check_failures(port):
	dead = free_port()
	mute = socket.socket()
	mute.bind(("127.0.0.1", 0))
	mute.listen(1)		# listens, never accepts nor answers
	cases = [("stopped", "http://127.0.0.1:%d/results/" % dead, None, 3),
		 ("404", "http://127.0.0.1:%d/e404/" % port, 404, 1),
		 ("500", "http://127.0.0.1:%d/e500/" % port, 500, 3),
		 ("silent", "http://127.0.0.1:%d/results/" % mute.getsockname()[1], None, 3)]
	base = None
	for name, url, status, tries in cases:
		rc, out, data, secs = run(name, "--upload=" + url)
		up = uploads(out)
		recs, corrupt = records(data.decode())
		ok(rc == 1 and len(up) == 1 and not up[0]["ok"] and up[0]["status"] == status
		   and up[0]["tries"] == tries, "%s server: one failed upload record (status %s, %d tries), exit 1"
		   % (name, status, tries), out[-1500:])
		ok(recs and not corrupt and recs[-1]["type"] == "end", "%s server: the records file is whole" % name)
		base = base or secs
		ok(up and up[0]["elapsed_ms"] <= LIMIT_S * 1000, "%s server: within the announced %d s" % (name, LIMIT_S))
		diag("%s server: run %.1f s, upload %s ms" % (name, secs, up[0]["elapsed_ms"] if up else "?"))
	mute.close()


def check_words():
	"""Bad URLs: one clear line each from the word check, before any boot, and from a host run."""
	for word, why in (("timeprobe.upload=https://10.0.2.100/results/", "https:// is not supported yet"),
			  ('timeprobe.upload="http://10.0.2.100/a b"', "not allowed in a URL path"),
			  ("timeprobe.upload=ftp://10.0.2.100/results/", "not an http"),
			  ("timeprobe.push=http://10.0.2.100:99999", "1..65535"),
			  ("timeprobe.upload=http://no-such-host.invalid/results/", "does not resolve")):
		p = subprocess.run([TIMEPROBE, "check-words", word], stdout=subprocess.PIPE,
				   stderr=subprocess.PIPE, text=True, timeout=60)
		lines = p.stderr.splitlines()
		ok(p.returncode == 2 and len(lines) == 1 and why in lines[0] and word.split("=")[0] + "=" in lines[0],
		   "check-words: %s: one line, %r" % (word, why), p.stderr)
	p = subprocess.run([TIMEPROBE, "run", "--probes=clocks", "--upload=https://127.0.0.1/x"],
			   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
	ok(p.returncode == 2 and "https:// is not supported yet" in p.stderr and not p.stdout,
	   "run --upload=https://...: refused before the run", p.stderr)


def check_load(port, www):
	"""LOAD_N concurrent `timeprobe upload`s of real captures, each to its own folder."""
	data = test_data()
	caps = sorted(os.path.join(data, f) for f in os.listdir(data)
		      if re.match(r"aa-host\d?-.*\.log$", f))[:8]
	if not ok(len(caps) == 8, "load: eight real captures to send (tests/data's aa-host sets)", caps):
		return
	t0 = time.monotonic()
	procs = [subprocess.Popen([TIMEPROBE, "upload", "http://127.0.0.1:%d/load/%d/" % (port, i),
				   caps[i % len(caps)]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
		 for i in range(LOAD_N)]
	rcs = []
	for p in procs:
		try:
			p.communicate(timeout=max(1, LOAD_LIMIT_S - (time.monotonic() - t0)))
		except subprocess.TimeoutExpired:
			p.kill()
			p.communicate()
		rcs.append(p.returncode)
	secs = time.monotonic() - t0
	intact = 0
	for i in range(LOAD_N):
		data = open(caps[i % len(caps)], "rb").read()
		mid = machine_id(data)
		path = os.path.join(www, "load", str(i), mid, "0001.tp1")
		intact += os.path.exists(path) and open(path, "rb").read() == data
	ok(rcs.count(0) == LOAD_N and intact == LOAD_N,
	   "%d concurrent uploads of %d captures: all stored intact within %d s (%d ok, %d intact)"
	   % (LOAD_N, len(caps), LOAD_LIMIT_S, rcs.count(0), intact))
	diag("load: %d concurrent uploads in %.2f s" % (LOAD_N, secs))


def main():
	if not os.access(TIMEPROBE, os.X_OK):
		print("1..0 # SKIP build/timeprobe not built (make userland)")
		return
	if not os.path.exists(NGINX) or not PUSHGW:
		print("1..0 # SKIP nginx or prometheus-pushgateway not installed (tools/deps.sh installs them)")
		return
	port, www = start_nginx(tmp)
	push_port = start_pushgateway()
	if not port or not push_port:
		print("1..0 # SKIP %s could not start on 127.0.0.1" % ("nginx" if not port else "prometheus-pushgateway"))
		return
	check_words()
	check_stored(port, www, push_port)
	check_failures(port)
	check_load(port, www)
	done()


try:
	main()
finally:
	stop_all(tmp)
