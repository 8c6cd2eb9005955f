#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tp-report's exports (docs/exporting.md) from committed captures (a host
run, a q35 boot, the two compared), a failed run and a hostile one, each
checked by its upstream validator: KCIDB against kcidb-io's JSON schema
v5.3 with Debian's python3-jsonschema, JUnit and the PTS composite.xml
against their XSDs with xmllint, KTAP with a small parser here and with
the kernel's own kunit_parser.py when a linux-source tree is unpacked in
the kernel build's cache. The figures exported are exactly the keys the
probes declare figures (tp-report --keys), with their units.

Debian's python3 on purpose: python3-jsonschema is a Debian package."""
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, ok, skip, diag, done, record_line, tp_report, test_data  # noqa: E402

REPORT = tp_report()
DATA = test_data()
SCHEMAS = os.path.join(ROOT, "tests", "schemas")
HOST = os.path.join(DATA, "aa-host-1-a.log")
Q35 = os.path.join(DATA, "serial-q35-fingerprint.log")
SETS = {"host": [HOST], "q35": [Q35], "compare": [HOST, Q35]}
tmp = tempfile.mkdtemp(prefix="timeprobe-export.")

try:
	import jsonschema
except ImportError:
	jsonschema = None


def export(fmt, files):
	p = subprocess.run([REPORT, "--format=" + fmt] + files, capture_output=True, text=True)
	return p.returncode, p.stdout, p.stderr


def xmllint(text, xsd, name):
	path = os.path.join(tmp, name + ".xml")
	with open(path, "w") as f:
		f.write(text)
	p = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(SCHEMAS, xsd), path],
			   capture_output=True, text=True)
	return p.returncode == 0, p.stderr[-2000:]


def declared():
	"""{probe: {key: unit}} of the keys the probes declare figures."""
	out = subprocess.run([REPORT, "--keys"], capture_output=True, text=True, check=True).stdout
	figs = {}
	for line in out.splitlines():
		rec = json.loads(line)
		figs[rec["for_probe"]] = {k: v[1] for k, v in rec["keys"].items() if v[0] == "figure"}
	return figs


# --- KTAP: a parser of ktap.rst's grammar, strict about what it relies on ---

KTAP_VERSION = re.compile(r"^( *)KTAP version 1$")
KTAP_PLAN = re.compile(r"^( *)1\.\.([0-9]+)$")
KTAP_RESULT = re.compile(r"^( *)(ok|not ok) ([0-9]+) ([^#]*?)(?: # (SKIP)?(.*))?$")


def parse_ktap(text):
	"""[(name, result, directive, [subtests], [diagnostics])] of the top level,
	or raises ValueError naming the line that breaks the grammar."""
	lines = text.split("\n")
	if lines[-1] == "":
		lines.pop()
	pos = 0

	def level(indent):
		nonlocal pos
		m = KTAP_VERSION.match(lines[pos]) if pos < len(lines) else None
		if not m or len(m.group(1)) != indent:
			raise ValueError("line %d: no 'KTAP version 1' at indent %d" % (pos + 1, indent))
		pos += 1
		while pos < len(lines) and lines[pos].strip().startswith("#"):
			pos += 1
		m = KTAP_PLAN.match(lines[pos]) if pos < len(lines) else None
		if not m or len(m.group(1)) != indent:
			raise ValueError("line %d: no plan at indent %d" % (pos + 1, indent))
		planned, pos, tests, diags = int(m.group(2)), pos + 1, [], []
		while len(tests) < planned:
			if pos >= len(lines):
				raise ValueError("%d of %d tests at indent %d" % (len(tests), planned, indent))
			line = lines[pos]
			if line.startswith(" " * (indent + 2) + "KTAP version"):
				subs = level(indent + 2)
				continue
			if line.strip().startswith("#"):
				diags.append(line.strip())
				pos += 1
				continue
			m = KTAP_RESULT.match(line)
			if not m or len(m.group(1)) != indent or int(m.group(3)) != len(tests) + 1:
				raise ValueError("line %d: not result %d at indent %d: %r"
						 % (pos + 1, len(tests) + 1, indent, line))
			tests.append((m.group(4), m.group(2), m.group(5), locals().get("subs", []), diags))
			subs, diags = [], []
			pos += 1
		return tests

	tests = level(0)
	if pos != len(lines):
		raise ValueError("line %d: after the last planned test" % (pos + 1))
	return tests


def kunit_parser():
	"""The kernel's kunit_parser module from linux-source's tree in the kernel
	build's cache (kernel/build.sh), or None."""
	cache = os.environ.get("TIMEPROBE_CACHE") or os.path.join(
		os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/nonexistent"),
								  ".cache"), "timeprobe")
	for d in sorted(glob.glob(os.path.join(cache, "src-*", "tools", "testing", "kunit"))):
		if os.path.exists(os.path.join(d, "kunit_parser.py")):
			sys.path.insert(0, d)
			try:
				import kunit_parser as kp
				return kp, d
			except ImportError:
				sys.path.pop(0)
	return None, None


KUNIT, KUNIT_DIR = kunit_parser()
if KUNIT:
	diag("kunit_parser.py from %s" % os.path.relpath(KUNIT_DIR, os.path.expanduser("~")))


def check_ktap(text, name, want_top, want_figs):
	try:
		tests = parse_ktap(text)
	except ValueError as e:
		ok(False, "%s: ktap parses" % name, str(e))
		return
	ok(len(tests) == want_top, "%s: ktap has one test per probe (%d)" % (name, len(tests)),
	   "%d tests, %d probes" % (len(tests), want_top))
	nfig = sum(1 for t in tests for s in t[3] if s[1] == "ok" and s[2] is None)
	ok(nfig == want_figs, "%s: ktap has one passing subtest per headline figure (%d)" % (name, nfig),
	   "%d subtests, %d figures" % (nfig, want_figs))
	if KUNIT is None:
		skip("%s: the kernel's kunit_parser reads it" % name,
		     "no linux-source tree with tools/testing/kunit in the kernel build's cache")
		return
	t = KUNIT.parse_run_tests(text.splitlines())
	total = t.counts.passed + t.counts.failed + t.counts.skipped + t.counts.crashed
	ok(t.counts.errors == 0 and len(t.subtests) == len(tests) and
	   total == sum(max(len(x[3]), 1) for x in tests),
	   "%s: the kernel's kunit_parser reads it (%s)" % (name, t.counts),
	   "errors %d, subtests %d" % (t.counts.errors, len(t.subtests)))


def check_kcidb(text, name):
	if jsonschema is None:
		skip("%s: kcidb validates against kcidb-io v5.3" % name, "no python3-jsonschema")
		return None
	with open(os.path.join(SCHEMAS, "kcidb", "kcidb-io.schema.v5.3.json")) as f:
		schema = json.load(f)
	doc = json.loads(text)
	v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
	errs = sorted(v.iter_errors(doc), key=str)
	ok(not errs, "%s: kcidb validates against kcidb-io v5.3 (%d tests)" % (name, len(doc["tests"])),
	   "\n".join("%s: %s" % (list(e.path), e.message[:200]) for e in errs[:5]))
	return doc


def figures_of(ktap):
	"""{(probe, key)} of the passing subtests."""
	out = set()
	for t in parse_ktap(ktap):
		probe = t[0].split(".")[-1]
		for s in t[3]:
			if s[1] == "ok" and s[2] is None:
				out.add((probe, s[0].split(".")[-1]))
	return out


FIGS = declared()


def unit_of(probe, key):
	"""The declared unit of a figure key (exact names first, then patterns,
	as keys.h finds them); False when it is not a declared figure."""
	figs = FIGS.get(probe, {})
	if key in figs:
		return figs[key]
	for pat, unit in figs.items():
		if fnmatch.fnmatchcase(key, pat):
			return unit
	return False

for set_name, files in SETS.items():
	outs = {}
	for fmt in ("kcidb", "ktap", "junit", "pts"):
		rc, out, err = export(fmt, files)
		ok(rc == 0 and out, "%s: --format=%s exits 0" % (set_name, fmt), err)
		outs[fmt] = out
	doc = check_kcidb(outs["kcidb"], set_name)
	done_tests = [t for t in doc["tests"] if t.get("status") == "DONE"] if doc else []
	for fmt, xsd in (("junit", "junit/junit-10.xsd"), ("pts", "pts/result-file.xsd")):
		good, why = xmllint(outs[fmt], xsd, "%s-%s" % (set_name, fmt))
		ok(good, "%s: %s validates against %s (xmllint)" % (set_name, fmt, xsd), why)
	# a run without a verdict has a suite "conditions" of no test, KTAP no test for it
	nprobes = outs["junit"].count("<testsuite ") - len(re.findall(r'<testsuite name="[^"]*conditions"',
								      outs["junit"]))
	check_ktap(outs["ktap"], set_name, nprobes, len(done_tests) if doc else
		   outs["junit"].count("<property ") - outs["junit"].count('<property name="timeprobe.'))
	ok(outs["pts"].count("<System>") == len(files),
	   "%s: pts has one System per run" % set_name)
	if not doc:
		continue
	# every exported figure is a declared figure, with the declared unit
	bad = [t["path"] for t in done_tests
	       if unit_of(t["path"].split(".")[1], t["path"].split(".")[-1]) != t["number"].get("unit")]
	ok(done_tests and not bad, "%s: kcidb's figures are the declared figures, with their units"
	   % set_name, bad[:5])
	fps = [t["environment"]["misc"].get("fingerprint") for t in done_tests]
	ok(all(fp and fp.get("type") == "fingerprint" for fp in fps),
	   "%s: every kcidb test carries the run's fingerprint in environment.misc" % set_name)
	ok(len(doc["checkouts"]) == len(files) == len(doc["builds"]),
	   "%s: one kcidb checkout and build per run" % set_name)

# the same figures in every format: KTAP's subtests, KCIDB's DONE tests, PTS's results
rc, ktap, _ = export("ktap", [Q35])
rc, pts, _ = export("pts", [Q35])
ok(len(figures_of(ktap)) and {(p, k) for p, k in figures_of(ktap)} ==
   {(m.group(1), m.group(2)) for m in re.finditer(r"<Title>([^:<]+): ([^<]+)</Title>", pts)},
   "q35: ktap and pts export the same (probe, figure) pairs")

# a failed probe and a skipped one, and hostile strings everywhere
EVIL = "a\"<b>&'c#d\x01\x1b[31m e\u00e9\u202e"
recs = [
	{"type": "run", "version": EVIL, "env": EVIL, "machine": EVIL, "kernel": EVIL,
	 "cmdline": "timeprobe.bootpart=" + EVIL, "start": "2026-12-03T08:17:40Z", "cpus": 2},
	{"type": "fingerprint", "env": EVIL, "cpu_model_name": EVIL * 20, "kernel_release": EVIL},
	{"type": "keys", "for_probe": "ev#il", "keys": {"name": ["id", None, None, None],
		"x<&\"#": ["figure", "n#s<", "lower", None]}},
	{"type": "result", "probe": "ev#il", "name": EVIL, "x<&\"#": 1.5},
	{"type": "result", "probe": "clocks", "name": EVIL * 10, "path": EVIL, "ns_per_call": 2.0},
	{"type": "error", "probe": "yield", "name": EVIL, "reason": EVIL + "\nnot ok 1 fake"},
	{"type": "skip", "probe": "switch", "name": EVIL, "reason": EVIL},
	{"type": "end", "probes_ok": 2, "probes_skipped": 1, "probes_failed": 1, "records": 7},
]
evil = os.path.join(tmp, "hostile.log")
with open(evil, "w") as f:
	f.write("".join(record_line(r) + "\n" for r in recs))
outs = {fmt: export(fmt, [evil]) for fmt in ("kcidb", "ktap", "junit", "pts")}
ok(all(o[0] == 0 for o in outs.values()), "hostile: every format exits 0",
   [o[2] for o in outs.values()])
doc = check_kcidb(outs["kcidb"][1], "hostile")
if doc:
	st = {t["path"].split(".")[1]: t["status"] for t in doc["tests"]}
	ok(st.get("yield") == "FAIL" and st.get("switch") == "SKIP" and st.get("clocks") == "DONE"
	   and st.get("ev_il") == "DONE", "hostile: kcidb says FAIL, SKIP and DONE", st)
for fmt, xsd in (("junit", "junit/junit-10.xsd"), ("pts", "pts/result-file.xsd")):
	good, why = xmllint(outs[fmt][1], xsd, "hostile-" + fmt)
	ok(good, "hostile: %s escapes every string and validates" % fmt, why)
# a label from the command line may be any bytes: the XML stays UTF-8
for fmt, xsd in (("junit", "junit/junit-10.xsd"), ("pts", "pts/result-file.xsd")):
	# two runs, so that junit names its suites after the labels too
	p = subprocess.run([os.fsencode(REPORT), b"--format=" + fmt.encode(),
			    b"--label=a\xff\xc0<b>\xed\xa0\x80,c\xf4\x90\x80\x80", os.fsencode(evil),
			    os.fsencode(evil)], capture_output=True)
	good, why = xmllint(p.stdout.decode("utf-8", "replace"), xsd, "bytes-" + fmt)
	ok(p.returncode == 0 and good and b"\xff" not in p.stdout and b"\xed\xa0" not in p.stdout,
	   "hostile: %s turns a label that is no UTF-8 into U+FFFD and validates" % fmt, why)
ok('failures="1"' in outs["junit"][1] and 'skipped="1"' in outs["junit"][1],
   "hostile: junit counts the failed and the skipped probe")
ktap = outs["ktap"][1]
ok(not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", ktap), "hostile: ktap has no control characters")
try:
	tops = parse_ktap(ktap)
	res = {t[0]: (t[1], t[2]) for t in tops}
	ok(res.get("yield", ("",))[0] == "not ok" and res.get("switch") == ("ok", "SKIP")
	   and res.get("clocks") == ("ok", None) and len(tops) == 4,
	   "hostile: ktap has 4 tests, yield not ok, switch skipped, no injected line", res)
	ok(all("#" not in s[0] for t in tops for s in t[3]) and all("#" not in t[0] for t in tops),
	   "hostile: no ktap test name holds a '#'")
except ValueError as e:
	ok(False, "hostile: ktap parses", str(e))
if KUNIT:
	t = KUNIT.parse_run_tests(ktap.splitlines())
	ok(t.counts.errors == 0 and t.counts.failed == 1 and len(t.subtests) == 4,
	   "hostile: the kernel's kunit_parser sees one failure, no parse error (%s)" % t.counts)

# The verdict travels to CI: the arm64 capture's verdict has one poor item
# (itimer's error) among nine; each format says so as a failure CI gates on.
ARM = os.path.join(DATA, "serial-arm64-virt-quick.log")
with open(ARM, errors="replace") as f:
	items = [json.loads(l.split("TP1 ", 1)[1].rsplit(" *", 1)[0])["items"]
		 for l in f if '"type":"verdict"' in l][0]
poor = sorted(k for k, v in items.items() if v["word"] == "poor")
skipped = sorted(k for k, v in items.items() if v["word"] in ("not measured", "unknown"))
ok(poor == ["itimer_error_pct"], "arm64: the capture's verdict has one poor item", poor)
rc, junit, _ = export("junit", [ARM])
m = re.search(r'<testsuite name="verdict" tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)"', junit)
ok(m and (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (len(items), len(poor), len(skipped)),
   "junit: a verdict suite, one case per item, poor ones failures, not measured skipped",
   m.groups() if m else junit[:300])
ok(re.search(r'name="itimer_error_pct">\s*<failure message="poor: 670.569 % \(itimer: ITIMER_REAL 100us\)"',
	     junit), "junit: the poor item's failure says its value and where it came from")
good, why = xmllint(junit, "junit/junit-10.xsd", "verdict-junit")
ok(good, "junit with the verdict validates against junit-10.xsd", why)
rc, kcidb, _ = export("kcidb", [ARM])
doc = check_kcidb(kcidb, "verdict")
if doc:
	vt = {t["path"].split(".", 2)[2]: t["status"] for t in doc["tests"] if t["path"].startswith("timeprobe.verdict.")}
	ok(vt == {k: "FAIL" if k in poor else "SKIP" if k in skipped else "PASS" for k in items},
	   "kcidb: one test per verdict item, FAIL for poor, PASS for good or fair, SKIP otherwise", vt)
rc, ktap, _ = export("ktap", [ARM])
tests = parse_ktap(ktap)
verdict = [t for t in tests if t[0] == "verdict"]
ok(verdict and verdict[0][1] == "not ok" and
   [s[0] for s in verdict[0][3] if s[1] == "not ok"] == poor,
   "ktap: a verdict test, not ok, its poor item the one failing subtest", verdict[:1])
done()
