#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""LAVA support (tools/lava/, docs/lava.md): the TP1-to-LAVA converter on a
real serial capture, a corrupt line, a failed run and a cut-short run; the
job and test definitions against LAVA's own schema (Debian's lava-common);
and the jobs' monitor and interactive patterns run over the real capture the
way LAVA's dispatcher runs them (pexpect: earliest match in what has arrived).

Debian's python3 on purpose: lava-common and PyYAML are Debian packages."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, BIN, ok, skip, diag, done, record_line, records, suite_records, lava_measurements  # noqa: E402

CONVERTER = os.path.join(ROOT, "tools", "lava", "tp1-to-lava.py")
LOG = os.path.join(ROOT, "tests", "data", "serial-pc-quick.log")
JOBS = [os.path.join(ROOT, "tools", "lava", f) for f in ("qemu.yaml", "x86-usb.yaml", "qemu-measure.yaml")]
# the job whose monitor reads timeprobe.lava's TPM lines (userland/lavamon.h)
MEASURE_JOB = "tools/lava/qemu-measure.yaml"
TESTDEF = os.path.join(ROOT, "tools", "lava", "timeprobe-os.yaml")
# LAVA's own reading of a signal (lava_dispatcher/actions/test/shell.py)
SIGNAL = re.compile(r"^<LAVA_SIGNAL_TESTCASE ([^>]+)>$")

tmp = tempfile.mkdtemp(prefix="timeprobe-lava.")


def convert(path, *args):
	p = subprocess.run([sys.executable, CONVERTER] + list(args) + [path],
			   capture_output=True, text=True)
	return p.returncode, p.stdout, p.stderr


def parse_signals(out):
	"""{case: {key: value}} as LAVA's handle_testcase() reads each line."""
	cases, bad = {}, []
	for line in out.splitlines():
		m = SIGNAL.match(line)
		params = m.group(1).split() if m else []
		kv = [p.split("=") for p in params]
		if not m or any(len(x) != 2 for x in kv):
			bad.append(line)
			continue
		d = {k.lower(): v for k, v in kv}
		cases.setdefault(d.get("test_case_id"), []).append(d)
	return cases, bad


text = open(LOG, encoding="utf-8", errors="replace").read()
recs, _ = records(text)
suite = suite_records(recs)
probe_recs = [r for r in suite if r["type"] in ("result", "skip", "error")]

# ---- the real capture ----
rc, out, err = convert(LOG)
cases, bad = parse_signals(out)
ok(rc == 0, "converter: the real capture converts, exit status 0", err)
ok(not bad and out.strip(), "converter: every line is a signal LAVA parses (KEY=VALUE, no spaces)", bad[:3])
ok(len(out.splitlines()) == len(probe_recs) + 3,
   "converter: one case per result/skip/error record (%d) plus probes-failed, "
   "records-complete, records-corrupt" % len(probe_recs), "%d lines" % len(out.splitlines()))
ok(all(len(v) == 1 for v in cases.values()), "converter: test case ids are unique",
   [k for k, v in cases.items() if len(v) > 1][:5])
ok(all(re.match(r"^[A-Za-z0-9._-]+$", k or "") for k in cases),
   "converter: ids use only [A-Za-z0-9._-]", [k for k in cases if not re.match(r"^[A-Za-z0-9._-]+$", k or "")][:5])
mono = next(r for r in suite if r.get("name") == "clock_gettime(CLOCK_MONOTONIC)" and r.get("path") == "syscall")
c = cases.get("clocks.clock_gettime_CLOCK_MONOTONIC.syscall.%s" % mono["clocksource"], [{}])[0]
ok(c.get("result") == "pass" and c.get("units") == "ns" and float(c.get("measurement", "nan")) == mono["ns_per_call"],
   "converter: a clocks result carries ns_per_call as MEASUREMENT with UNITS=ns", c)
wake = next(r for r in suite if r.get("probe") == "wakeup" and r["type"] == "result")
c = [v[0] for k, v in cases.items() if k.startswith("wakeup.")][0]
ok(c.get("units") == "ns" and float(c["measurement"]) == wake["p99_ns"],
   "converter: a wakeup result carries its p99_ns", c)
skips = [k for k, v in cases.items() if v[0]["result"] == "skip"]
ok(len(skips) == sum(1 for r in suite if r["type"] == "skip"), "converter: skip records are skipped cases", skips)
pf = cases.get("probes-failed", [{}])[0]
ok(pf.get("result") == "pass" and pf.get("measurement") == "0", "converter: probes-failed passes with 0", pf)
rcmp = cases.get("records-complete", [{}])[0]
ok(rcmp.get("result") == "pass" and int(rcmp.get("measurement", -1)) == suite[-1]["records"],
   "converter: records-complete passes with the end record's count", rcmp)

rc, yout, _ = convert(LOG, "--format", "yaml")
try:
	import yaml
	y = yaml.safe_load(yout)
	ok(isinstance(y, list) and len(y) == len(out.splitlines())
	   and all({"definition", "case", "result"} <= set(d) for d in y),
	   "converter --format yaml: LAVA's result fields, one entry per case", yout[:300])
	ok(all(isinstance(d.get("measurement", 0), (int, float)) for d in y),
	   "converter --format yaml: measurements are numbers")
except ImportError:
	ok(True, "converter --format yaml: # SKIP python3-yaml missing")
	ok(True, "converter --format yaml: # SKIP python3-yaml missing")

rc, aout, _ = convert(LOG, "--all-figures")
acases, abad = parse_signals(aout)
ok(rc == 0 and not abad and "clocks.clock_gettime_CLOCK_MONOTONIC.syscall.%s.ns_per_call_p99" % mono["clocksource"] in acases,
   "converter --all-figures: one case per figure with a unit", abad[:3])

# ---- LAVA's own log of the job: device lines wrapped, quotes escaped ----
def lava_wrap(line, prefix=""):
	"""A device line as lava-run logs it: ShellLogger drops \\r and ESC and puts
	a backslash before every '"'; YAMLLogger writes {"dt", "lvl", "msg"}."""
	msg = line.replace("\r", "").replace("\x1b", "").replace('"', '\\"')
	return prefix + json.dumps({"dt": "2026-12-02T12:00:00", "lvl": "target", "msg": msg})


wrapped = [lava_wrap(l) for l in text.split("\n")]
wrapped.insert(3, json.dumps({"dt": "x", "lvl": "info", "msg": 'Waiting for start message: TP1 \\{"type":"run"'}))
for name, prefix in (("lava-run's output", ""), ("lavacli jobs logs --raw", "- ")):
	path = os.path.join(tmp, "lava-%d.log" % len(prefix))
	open(path, "w").write("\n".join(prefix + l if not l.startswith(prefix) else l for l in wrapped))
	rc, lout, lerr = convert(path)
	ok(rc == 0 and lout == out, "LAVA's log (%s): the same cases as the serial log" % name,
	   lerr + "\n" + "\n".join(lout.splitlines()[-3:]))

# ---- a corrupt line: skipped, counted, and the run no longer complete ----
lines = text.split("\n")
i = next(n for n, l in enumerate(lines) if '"name":"clock_gettime(CLOCK_MONOTONIC)"' in l and '"path":"syscall"' in l)
lines[i] = lines[i].replace('"ns_per_call":', '"ns_per_call":9', 1)	# CRC now wrong
bad_log = os.path.join(tmp, "corrupt.log")
open(bad_log, "w").write("\n".join(lines))
rc, out, err = convert(bad_log)
cases, bad = parse_signals(out)
ok(rc == 1, "corrupt line: exit status 1", "rc %s" % rc)
ok("clocks.clock_gettime_CLOCK_MONOTONIC.syscall.%s" % mono["clocksource"] not in cases,
   "corrupt line: its record gives no test case")
cc = cases.get("records-corrupt", [{}])[0]
ok(cc.get("result") == "fail" and cc.get("measurement") == "1", "corrupt line: records-corrupt fails with 1", cc)
ok(cases.get("records-complete", [{}])[0].get("result") == "fail",
   "corrupt line: records-complete fails (the end record counted it)")
ok(len(out.splitlines()) == len(probe_recs) + 2, "corrupt line: every other record still converted")
ok("skipped 1 corrupt" in err, "corrupt line: said on stderr", err)

# ---- a run with a failed probe ----
fail_log = os.path.join(tmp, "failed.log")
with open(fail_log, "w") as f:
	f.write("\n".join([
		record_line({"type": "run", "env": "appliance", "version": "0.1.0"}),
		record_line({"type": "result", "probe": "clocks", "name": "rdtsc", "path": "insn", "ns_per_call": 10.5}),
		record_line({"type": "error", "probe": "crash", "reason": "signal", "signal": 11}),
		"[   12.5] random kernel noise",
		record_line({"type": "end", "probes_ok": 1, "probes_skipped": 0, "probes_failed": 1, "records": 3}),
	]) + "\n")
rc, out, _ = convert(fail_log)
cases, _ = parse_signals(out)
ok(rc == 1, "failed probe: exit status 1")
ok(cases.get("crash.signal", [{}])[0].get("result") == "fail", "failed probe: its error record is a failed case", out)
pf = cases.get("probes-failed", [{}])[0]
ok(pf.get("result") == "fail" and pf.get("measurement") == "1", "failed probe: probes-failed fails with 1", pf)
ok(cases.get("clocks.rdtsc.insn", [{}])[0].get("measurement") == "10.5", "failed probe: other results still measured")

# ---- the headline comes from the registry the run record carries ----
fig_log = os.path.join(tmp, "figures.log")
with open(fig_log, "w") as f:
	f.write("\n".join([
		record_line({"type": "run", "env": "appliance", "version": "0.1.0",
			     "figures": {"newprobe": ["gap_ns", "count"], "clocks": ["resolution_ns"]}}),
		record_line({"type": "result", "probe": "newprobe", "name": "x", "count": 3, "gap_ns": 7}),
		record_line({"type": "result", "probe": "clocks", "name": "y", "ns_per_call": 2, "resolution_ns": 1}),
		record_line({"type": "end", "probes_ok": 2, "probes_skipped": 0, "probes_failed": 0, "records": 3}),
	]) + "\n")
rc, out, _ = convert(fig_log)
cases, _ = parse_signals(out)
ok(cases.get("newprobe.x", [{}])[0].get("measurement") == "7",
   "figures: a probe the converter has never heard of gets its registry headline", out)
ok(cases.get("clocks.y", [{}])[0].get("measurement") == "1",
   "figures: the registry's headline wins over the built-in list", out)

# ---- a run cut short: no end record ----
cut_log = os.path.join(tmp, "cut.log")
open(cut_log, "w").write("\n".join(text.split("\n")[:text[:text.find('"type":"end"')].count("\n")]))
rc, out, _ = convert(cut_log)
cases, _ = parse_signals(out)
ok(rc == 1 and cases.get("suite-end", [{}])[0].get("result") == "fail", "no end record: suite-end fails")
rc, out, err = convert(os.path.join(tmp, "missing.log"))
ok(rc == 2 and "missing.log" in err, "a missing file: exit status 2 and its name", err)

# ---- the job and test definitions against LAVA's schema ----
try:
	import yaml
except ImportError:
	yaml = None
try:
	from lava_common.schemas import validate as lava_validate
	from lava_common.schemas.test.testdef import validate as lava_testdef
except ImportError:
	lava_validate = lava_testdef = None
	diag("lava-common is not installed (apt-get install lava-common): structural checks only")
jobs = {}
for path in JOBS + [TESTDEF]:
	name = os.path.relpath(path, ROOT)
	if yaml is None:
		ok(True, "%s: # SKIP python3-yaml missing" % name)
		continue
	try:
		data = yaml.safe_load(open(path))
	except yaml.YAMLError as e:
		ok(False, "%s: is YAML" % name, e)
		continue
	if path != TESTDEF:
		jobs[name] = data
	try:
		if lava_validate is None:
			if path == TESTDEF:
				assert data["metadata"]["format"] == "Lava-Test Test Definition 1.0" and data["run"]["steps"]
			else:
				assert data["device_type"] and data["timeouts"]["job"] and data["actions"]
				assert [next(iter(a)) for a in data["actions"]] == ["deploy", "boot", "test", "test"]
			ok(True, "%s: structure (no lava-common here)" % name)
		elif path == TESTDEF:
			lava_testdef(data)
			ok(True, "%s: valid for lava_common.schemas.test.testdef" % name)
		else:
			lava_validate(data, strict=True)
			ok(True, "%s: valid for lava_common.schemas.validate (strict)" % name)
	except Exception as e:  # voluptuous.Invalid or AssertionError/KeyError
		ok(False, "%s: valid job/test definition" % name, "%s: %s" % (type(e).__name__, e))


def lava_expect(buf, patterns, feed):
	"""pexpect's expect_list(): the earliest match in what has arrived (ties: the
	first pattern), consuming up to its end; reads more (feed) until one matches."""
	regs = [re.compile(p) for p in patterns]
	while True:
		best = None
		for i, r in enumerate(regs):
			m = r.search(buf)
			if m and (best is None or m.start() < best[1].start()):
				best = (i, m)
		if best:
			return best[0], best[1], buf[best[1].end():]
		chunk = feed()
		if chunk is None:
			return None, None, buf
		buf += chunk


def run_job(job, log_text):
	"""The job's monitor then interactive test actions over a log, as LAVA."""
	pos = [0]

	def feed(size=61):	# arrives in odd-sized pieces, as over a serial line
		if pos[0] >= len(log_text):
			return None
		pos[0] += size
		return log_text[pos[0] - size:pos[0]]
	tests = [a["test"] for a in job["actions"] if "test" in a]
	mon = tests[0]["monitors"][0]
	got, buf = [], ""
	i, _, buf = lava_expect(buf, [mon["start"]], feed)
	if i is None:
		return got, "no start"
	while True:
		i, m, buf = lava_expect(buf, [mon["end"], mon["pattern"]], feed)
		if i is None:
			return got, "eof"
		if i == 0:
			break
		g = m.groupdict()
		case = re.sub(r"\W+", "_", g["test_case_id"].strip().lower())
		if "result" in g:
			got.append((case, mon.get("fixupdict", {}).get(g["result"], g["result"])))
		elif g.get("measurement"):
			# no result group: a pass with float(measurement) and the units (monitor.py)
			got.append((case, "pass", float(g["measurement"]), g.get("units")))
	step = tests[1]["interactive"][0]
	cmd = step["script"][0]
	fails = [f["message"] for f in cmd["failures"]]
	succ = [s["message"] for s in cmd["successes"]]
	i, m, buf = lava_expect(buf, step["prompts"] + fails + succ, feed)
	if i is None:
		return got, "eof"
	if i < len(step["prompts"]):
		return got, "prompt"
	return got, "failure" if i < len(step["prompts"]) + len(fails) else "success"


failed_text = text.replace('"probes_failed":0,', '"probes_failed":2,')
for name, job in sorted(jobs.items()):
	if name == MEASURE_JOB:
		continue
	got, verdict = run_job(job, text)
	ok(len(got) == len(probe_recs) and all(r in ("pass", "skip", "fail") for _, r in got),
	   "%s: the monitor makes one case per result/skip/error record (%d)" % (name, len(probe_recs)),
	   "%d cases: %s" % (len(got), got[:3]))
	ok(sum(1 for _, r in got if r == "skip") == sum(1 for r in probe_recs if r["type"] == "skip"),
	   "%s: skip records are skipped cases" % name)
	ok(got and got[1][0] == "clocks_name_time_", "%s: case names are probe and name" % name, got[:2])
	ok(verdict == "success", "%s: the end record with probes_failed 0 passes" % name, verdict)
	_, verdict = run_job(job, failed_text)
	ok(verdict == "failure", "%s: probes_failed 2 matches the failure (TestError)" % name, verdict)


# ---- timeprobe.lava: the suite's TPM lines, read by the measure job's monitor ----
mjob = jobs.get(MEASURE_JOB)
if mjob is None or not os.access(BIN, os.X_OK):
	skip("timeprobe.lava: TPM lines match the measure job's monitor",
	     "no %s" % ("python3-yaml" if mjob is None else "build/timeprobe (make)"))
else:
	p = subprocess.run([BIN, "run", "--probes=vdso-check,yield,tsc", "--profile=quick", "--lava"],
			   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
	out = p.stdout
	mon = [a["test"] for a in mjob["actions"] if "test" in a][0]["monitors"][0]
	tpm, want, missing, wrong = lava_measurements(out, mon["pattern"])
	ok(tpm[0] and not tpm[1], "timeprobe.lava: every TPM line matches the job's monitor pattern (%d)"
	   % len(tpm[0]), tpm[1][:3])
	ok(want and not missing, "timeprobe.lava: each declared figure of each result (%d) is a matched "
	   "line with its value" % want, missing[:5])
	ok(not wrong, "timeprobe.lava: each carries its declared unit", wrong[:5])
	ok(len(tpm[0]) == want, "timeprobe.lava: no line for anything but a declared figure",
	   "%d lines, %d figures" % (len(tpm[0]), want))
	got, verdict = run_job(mjob, out)
	ok(len(got) == want and all(g[1] == "pass" and g[3] for g in got),
	   "%s: the monitor (as the dispatcher runs it) records %d passing cases with measurement "
	   "and units" % (MEASURE_JOB, want), got[:3])
	ok(verdict == "success", "%s: the end record with probes_failed 0 passes" % MEASURE_JOB, verdict)
	# through the dispatcher's pty the guest's "\r\n" arrives as "\r\r\n" (ONLCR twice)
	got2, _ = run_job(mjob, out.replace("\n", "\r\r\n"))
	ok(got2 == got, "%s: the same cases when lines end in \\r\\r\\n, as through LAVA's pty"
	   % MEASURE_JOB, got2[:3])
	plain = subprocess.run([BIN, "run", "--probes=vdso-check", "--profile=quick"],
			       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
	ok("\nTPM " not in plain.stdout, "without timeprobe.lava: no TPM line")
done()
