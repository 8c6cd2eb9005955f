#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns timeprobe's TP1 records into LAVA test results (docs/lava.md).

    tp1-to-lava.py [--format signals|yaml] [--all-figures] [FILE...]

FILE is a serial log, a saved results file, or LAVA's own log of a job
(lava-run's output, `lavacli jobs logs --raw`), whose device lines it
unwraps; none or "-" reads standard input. The suite's records,
from the last `run` to its `end`, become test cases:

  result  -> pass, with its headline figure as MEASUREMENT and UNITS
  skip    -> skip
  error   -> fail
  end     -> probes-failed (pass when 0, the count as measurement) and
             records-complete (pass when the end record counts every record)
  corrupt -> no test case; counted in records-corrupt (pass when 0)

--format signals (the default) prints LAVA_SIGNAL_TESTCASE lines, which a
lava-test-shell turns into test cases; --format yaml prints the same cases
in the shape of LAVA's results API (definition, case, result, measurement,
unit). The exit status is 1 when any case failed, 2 on a usage error, so a
test definition can also use it as its own pass/fail.

Python 3 standard library only: it runs on a LAVA worker or in a test shell,
from a checkout of the repository (it reads records with tools/tp1rec.py).
"""
import argparse
import json
import os
import re
import sys

# the one Python reader of TP1 records (docs/records.md): CRC and length checked
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tp1rec import START, records, suite_records  # noqa: E402

# Each probe's headline figure comes from the registry, which the run record
# carries ("figures": probe -> its promised figures, headline first). Older
# logs without it fall back to this list: first present wins. A result
# without any of them is still a passing case, without measurement.
HEADLINE = (
	"ns_per_call",		# clocks: cost of one read of a clock
	"ns_per_yield",		# yield
	"us_per_round_trip",	# switch
	"p99_ns",		# wakeup: 99th percentile latency
	"actual_us",		# itimer: CPU time per signal (the seed's actual)
	"stolen_pct",		# noise: share of time taken from the loop
	"max_warp_ns",		# tsc: cross-CPU sync
	"stub_vs_kernel_ppm",	# tsc: agreement of calibrations
	"tsc_hz",		# noise/tsc: calibration used
)

# String fields that tell apart results of the same name (records.md).
DISTINGUISH = ("path", "clocksource")

# Unit suffixes of docs/records.md, longest first, and LAVA's unit for each.
UNIT_SUFFIXES = (
	("_per_s", "1/s"), ("_ppm", "ppm"), ("_pct", "%"), ("_hz", "Hz"),
	("_ns", "ns"), ("_us", "us"), ("_ms", "ms"), ("_s", "s"),
)


def units_of(key):
	"""The unit a key carries: ns_per_call -> ns, p99_ns -> ns, ..."""
	m = re.match(r"^(ns|us|ms|s)_per_", key)
	if m:
		return m.group(1)
	for suffix, unit in UNIT_SUFFIXES:
		if key.endswith(suffix):
			return unit
	if key.startswith("ticks_"):
		return "ticks"
	return None


def is_number(v):
	return isinstance(v, (int, float)) and not isinstance(v, bool)


def lava_log_line(raw):
	"""The device's text in a line of LAVA's own log (lava-run's output, or
	`lavacli jobs logs --raw`: [- ]{"dt": ..., "lvl": "target", "msg": "..."}),
	where quotes are escaped and a record would fail its CRC; "" for LAVA's
	own messages (they quote the patterns); a line of any other log as it is."""
	s = raw.strip()
	if s.startswith("- "):
		s = s[2:]
	if not (s.startswith('{"dt"') and '"lvl"' in s and START in s):
		return raw
	try:
		entry = json.loads(s)
	except ValueError:
		return raw
	if entry.get("lvl") in ("target", "feedback") and isinstance(entry.get("msg"), str):
		# the dispatcher put a backslash before every '"' of the device's
		# line (lava_dispatcher/shell.py, ShellLogger); take them out
		return re.sub(r'\\(?=")', "", entry["msg"])
	return ""


def read_records(lines):
	"""Every valid record in order, and how many TP1 lines were corrupt."""
	return records(lava_log_line(raw) for raw in lines)


def case_id(*parts):
	"""A test case name LAVA keeps as it is: [A-Za-z0-9._-], no spaces or '='."""
	clean = [re.sub(r"[^A-Za-z0-9_-]+", "_", str(p)).strip("_") for p in parts if p not in (None, "")]
	return ".".join(p for p in clean if p) or "unnamed"


def record_id(r):
	"""probe.name[.path][.clocksource]; a probe's error adds its reason, a bad
	option is option.NAME, a suite error (watchdog) suite.REASON."""
	if r["type"] == "error" and not r.get("probe"):
		parts = ["option", r["option"]] if r.get("option") else ["suite", r.get("reason")]
	else:
		parts = [r.get("probe"), r.get("name")]
		if r["type"] == "error":
			parts.append(r.get("reason"))
	parts += [r.get(k) for k in DISTINGUISH if isinstance(r.get(k), str)]
	if "iteration" in r:
		parts.append("iter%s" % r["iteration"])
	return case_id(*parts)


def cases(recs, corrupt, all_figures=False):
	"""LAVA test cases as dicts: case, result, and measurement/units when known."""
	out, seen = [], {}

	def add(name, result, measurement=None, units=None):
		seen[name] = seen.get(name, 0) + 1
		if seen[name] > 1:
			name = "%s.%d" % (name, seen[name])
		c = {"case": name, "result": result}
		if measurement is not None:
			c["measurement"] = measurement
			if units:
				c["units"] = units
		out.append(c)

	run = suite_records(recs)
	figures = run[0].get("figures") if run and run[0]["type"] == "run" else None
	for r in run:
		t = r["type"]
		if "round" in r:
			continue	# a round's record: the run's follows (docs/records.md, "Rounds")
		if t == "result":
			own = figures.get(r.get("probe")) if isinstance(figures, dict) else None
			order = [k for k in own if isinstance(k, str)] if isinstance(own, list) else []
			key = next((k for k in order + list(HEADLINE) if is_number(r.get(k))), None)
			if all_figures:
				for k, v in r.items():
					if is_number(v) and units_of(k):
						add(record_id(r) + "." + k, "pass", v, units_of(k))
			elif key:
				add(record_id(r), "pass", r[key], units_of(key))
			else:
				add(record_id(r), "pass")
		elif t == "skip":
			add(record_id(r), "skip")
		elif t == "error":
			add(record_id(r), "fail")
	end = run[-1] if run and run[-1]["type"] == "end" else None
	if end is None:
		add("suite-end", "fail")	# no end record: the run was cut short
	else:
		failed = end.get("probes_failed")
		add("probes-failed", "pass" if failed == 0 else "fail",
		    failed if is_number(failed) else None, "probes")
		add("records-complete", "pass" if end.get("records") == len(run) - 1 else "fail",
		    len(run) - 1, "records")
	add("records-corrupt", "pass" if corrupt == 0 else "fail", corrupt, "records")
	return out


def number(v):
	"""A measurement as LAVA's Decimal() reads it: no exponent surprises."""
	if isinstance(v, int):
		return str(v)
	return format(v, ".12g")


def signal(c):
	s = "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s" % (c["case"], c["result"])
	if "measurement" in c:
		s += " MEASUREMENT=%s" % number(c["measurement"])
		if "units" in c:
			s += " UNITS=%s" % c["units"]
	return s + ">"


def yaml_results(cs, definition):
	"""LAVA's results as YAML (plain enough to write without a YAML library)."""
	lines = []
	for c in cs:
		lines.append("- definition: %s" % definition)
		lines.append("  case: '%s'" % c["case"])
		lines.append("  result: %s" % c["result"])
		if "measurement" in c:
			lines.append("  measurement: %s" % number(c["measurement"]))
			if "units" in c:
				lines.append("  unit: '%s'" % c["units"])
	return "\n".join(lines) + ("\n" if lines else "")


def main(argv):
	ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
	ap.add_argument("--format", choices=("signals", "yaml"), default="signals")
	ap.add_argument("--definition", default="timeprobe",
			help="the definition (suite) name in --format yaml")
	ap.add_argument("--all-figures", action="store_true",
			help="one case per numeric figure of each result, not the headline only")
	ap.add_argument("files", nargs="*")
	args = ap.parse_args(argv)

	lines = []
	for f in args.files or ["-"]:
		if f == "-":
			lines += sys.stdin.read().split("\n")
			continue
		try:
			with open(f, encoding="utf-8", errors="replace") as fh:
				lines += fh.read().split("\n")
		except OSError as e:
			print("tp1-to-lava: %s: %s" % (f, e.strerror), file=sys.stderr)
			return 2
	recs, corrupt = read_records(lines)
	cs = cases(recs, corrupt, args.all_figures)
	if args.format == "signals":
		for c in cs:
			print(signal(c))
	else:
		sys.stdout.write(yaml_results(cs, args.definition))
	if corrupt:
		print("tp1-to-lava: skipped %d corrupt TP1 line(s)" % corrupt, file=sys.stderr)
	return 1 if any(c["result"] == "fail" for c in cs) else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
