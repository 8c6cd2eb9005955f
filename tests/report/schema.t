#!/bin/sh
# SPDX-License-Identifier: MIT
# The identity schema (tools/report/schema.c and the probes' key
# declarations, keys.h): docs/records.md carries the same table, every key
# the probes emit is declared by its probe, the report's built-in
# declaration is what the binary ships, and two host runs of the same
# configuration line up: their clocks figures compare, and the iterations
# of --repeat combine into one result with a spread.
. "$(dirname "$0")/lib.sh"

TIMEPROBE=${TIMEPROBE:-${B:-build}/timeprobe}

# the table between the markers in docs/records.md is the one in the code
sed -n '/^<!-- schema: generated/,/^<!-- schema end -->/p' docs/records.md | sed '1d;$d' >"$TMP/doc"
"$TP_REPORT" --schema >"$TMP/code"
[ -s "$TMP/code" ] && diff -u "$TMP/doc" "$TMP/code" >"$TMP/diff"
pass $? "docs/records.md has the schema table of tools/report/schema.c (make report-schema-doc)"
diag "$TMP/diff"

# the check can fail: a key nobody declared is named
tp1 '{"type":"result","probe":"clocks","name":"x","frobs_per_s":1}' >"$TMP/unknown.log"
run "$TP_REPORT" --check-keys "$TMP/unknown.log"
[ $rc -eq 1 ] && grep -q "unclassified key result/clocks/frobs_per_s in 1 record" "$TMP/out"
pass $? "--check-keys names a key the schema does not know, exit 1"

# every real capture in tests/data (the synthetic report-*.log use made-up keys)
run "$TP_REPORT" --check-keys tests/data/serial-*.log tests/data/capture-*.log
pass $rc "every key of the real captures is classified"
diag "$TMP/out"

if [ ! -x "$TIMEPROBE" ]; then
	echo "# SKIP $TIMEPROBE not built (make userland): the host runs"
	done_testing
fi

# every probe, and the fault-injection ones, on this host
"$TIMEPROBE" run --profile=quick --inject=crash,exit >"$TMP/all.log" 2>"$TMP/all.err"
run "$TP_REPORT" --check-keys "$TMP/all.log"
pass $rc "every key a quick host run of every probe emits is classified"
diag "$TMP/out"

# each result's keys are in its own probe's keys record of the same run; a figure's
# interval, KEY_ci95 (docs/records.md), is declared by its figure's row
python3 - "$TMP/all.log" >"$TMP/undeclared" <<'PY'
import fnmatch, sys
sys.path.insert(0, "tools")
from tp1rec import records
recs, corrupt = records(open(sys.argv[1]).read())
if corrupt:
    print("%d corrupt records" % corrupt)
decl = {r["for_probe"]: r["keys"] for r in recs if r["type"] == "keys"}
frame = {"type", "probe", "name", "iteration", "round"}
results = [r for r in recs if r["type"] == "result"]
for r in results:
    keys = decl.get(r["probe"], {})
    def declared(k):
        return k in keys or any(fnmatch.fnmatchcase(k, p) for p in keys)
    for k in set(r) - frame:
        if k.endswith("_ci95") and declared(k[:-5]) and keys.get(k[:-5], [None])[0] == "figure":
            v = r[k]
            if not (isinstance(v, list) and len(v) == 3 and v[0] <= v[1] and v[2] >= 1):
                print("%s: %s is not [lo, hi, n]" % (r["probe"], k))
            continue
        if not declared(k):
            print("%s: %s" % (r["probe"], k))
print("checked %d results of %d probes" % (len(results), len({r["probe"] for r in results})))
PY
[ "$(grep -vc '^checked' "$TMP/undeclared")" = 0 ] && grep -Eq '^checked [1-9][0-9]* results of ([5-9]|[1-9][0-9]) probes' "$TMP/undeclared"
pass $? "every key of every result of that run is declared by its probe in the run's keys records"

# The joint of a figure's interval (common/record.h, TP_REC_CI_SUFFIX): what the
# suite wrote beside each figure arrives in the report's model (--format=json) as is
run "$TP_REPORT" --format=json "$TMP/all.log"
python3 - "$TMP/all.log" "$TMP/out" >"$TMP/ci" <<'PY'
import json, sys
sys.path.insert(0, "tools")
from tp1rec import records
recs, _ = records(open(sys.argv[1]).read())
sent = {}
for r in recs:
    if r["type"] == "result":
        for k, v in r.items():
            if k.endswith("_ci95"):
                sent[(r["probe"], r["name"], k[:-5])] = v
got = {}
for f in json.load(open(sys.argv[2]))["figures"]:
    run = f["runs"][0]
    if run and "ci95" in run and not f["as_booted"]:
        got[(f["probe"], f["result"], f["figure"])] = run["ci95"]
bad = [k for k in sent if k in got and
       any(abs(a - b) > 1e-6 * max(1, abs(a)) for a, b in zip(sent[k], got[k]))]
missing = [k for k in sent if k not in got]
print("sent %d, arrived %d, differ %d" % (len(sent), len(got), len(bad)))
for k in (bad + missing)[:5]:
    print("  %s: sent %s, got %s" % (k, sent[k], got.get(k)))
sys.exit(1 if bad or missing or not sent or {p for p, _, _ in sent} < {"clocks", "switch", "yield"} else 0)
PY
pass $? "every figure's interval the suite wrote arrives in the report as written (clocks, switch, yield)"
diag "$TMP/ci"
diag "$TMP/undeclared"

# the report's built-in declaration (older captures) is what this binary ships
python3 tools/tp1rec.py all keys "$TMP/all.log" >"$TMP/shipped"
"$TP_REPORT" --keys >"$TMP/builtin"
[ -s "$TMP/shipped" ] && diff -u "$TMP/builtin" "$TMP/shipped" >"$TMP/diff"
pass $? "tp-report --keys equals the keys records of a host run ($(wc -l <"$TMP/shipped") probes)"
diag "$TMP/diff"

# a second run, clocks only, three times over
"$TIMEPROBE" run --probes=clocks --profile=quick --repeat=3 >"$TMP/clocks.log" 2>"$TMP/clocks.err"
run "$TP_REPORT" --format=json "$TMP/all.log" "$TMP/clocks.log"
python3 - "$TMP/out" >"$TMP/share" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
figs = [f for f in doc["figures"] if f["probe"] == "clocks"]
both = [f for f in figs if f["runs"][0] and f["runs"][1]]
spread = [f for f in both if f["runs"][1]["n"] == 3]
print(len(figs), len(both), len(spread))
PY
read -r total both spread <"$TMP/share"
echo "# clocks figures: $total in either run, $both in both, $spread of those with 3 iterations"
[ "$total" -gt 100 ] && [ $((both * 100)) -ge $((total * 95)) ]
pass $? "two host runs of clocks compare at least 95 % of their figures ($both of $total)"
# a figure may be missing from one iteration (granularity_ns is null when no step was seen)
[ $((spread * 100)) -ge $((both * 95)) ]
pass $? "--repeat=3: at least 95 % of the clocks figures combine 3 iterations ($spread of $both)"
run "$TP_REPORT" "$TMP/clocks.log"
grep -q "^Spread over 3 iterations" "$TMP/out" && ! grep -q "^Comparison" "$TMP/out"
pass $? "--repeat=3 alone is one run with a spread table, not three runs"

done_testing
