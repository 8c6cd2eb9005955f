#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# timing: counts the machine's switches and CPU time around a probe run here; run alone (tools/prove-all.sh)
# Host test of the attribution record (userland/attribution.c) around probe
# `switch` (its last round's), which hands a token back and forth through pipes: the record and
# its console line name the machine's counts and the probe's own apart, and
# the probe's own fit inside the machine's (structural, not timing): its CPU
# time within its window on every CPU, its switches among the machine's.
# The injection `observers` runs after it as a probe runs and says what
# watches its task: no perf event in its fd table (the suite's migration
# counters are per CPU, not inherited by the probe) and no tracer.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)

run = run_probe("switch", "--inject=observers")
att = [r for r in run.recs if r["type"] == "attribution" and r.get("for_probe") == "switch"]
# switch runs in rounds (docs/records.md, "Rounds"): one record after each,
# carrying its round; the console line is the last round's
ok(run.p.returncode == 0 and not run.bad and len(att) >= 1
   and [r.get("round") for r in att] == (list(range(1, len(att) + 1)) if len(att) > 1 else [None]),
   "one attribution record for switch per round (%d)" % len(att), run.p.stdout[-1500:])
a = att[-1] if att else {}
seen = [r for r in run.recs if r["type"] == "result" and r.get("probe") == "observers"]
ok(len(seen) == 1 and seen[0].get("perf_event_fds") == 0 and seen[0].get("tracer_pid") == 0,
   "a probe's task holds no perf event and has no tracer while it runs", seen)
mig = a.get("machine_migrations")
ok("own_migrations" not in a and (isinstance(mig, int) or
                                  isinstance(a.get("missing", {}).get("machine_migrations"), str)),
   "migrations are the machine's (per-CPU counters), or missing says why", a)
own = {k: a.get(k) for k in ("own_vol_ctxsw", "own_invol_ctxsw", "own_cpu_ms")}
ok(all(isinstance(v, int) for k, v in own.items() if k != "own_cpu_ms")
   and isinstance(own["own_cpu_ms"], (int, float)), "the probe's own switches and CPU time", a)
ok(isinstance(a.get("machine_context_switches"), int) and "context_switches" not in a
   and a.get("scope") == {"irq": "machine", "softirq": "machine", "smis": "machine"},
   "the machine's counts under names that say so", a)
ncpu = os.cpu_count() or 1
ok(isinstance(own["own_cpu_ms"], (int, float)) and isinstance(a.get("ran_ms"), int)
   and 0 < own["own_cpu_ms"] <= (a["ran_ms"] + 1) * ncpu,
   "own CPU time > 0 and within the window on every CPU (%s CPUs)" % ncpu, a)
# the token's hand-overs block in read(): every round trip is a voluntary switch
ok(isinstance(own["own_vol_ctxsw"], int) and own["own_vol_ctxsw"] > 0
   and own["own_vol_ctxsw"] + (own["own_invol_ctxsw"] or 0) <= a.get("machine_context_switches", -1),
   "own switches: some, and no more than the machine's", a)
line = [h for h in run.human if h.startswith("  switch: machine: ")]
m = re.search(r"machine: ([\d ]+) context switches.*; probe: ([\d ]+) voluntary, ([\d ]+) involuntary "
              r"switches, ([\d ]+) ms CPU", line[0] if line else "")
ok(m and [int(g.replace(" ", "")) for g in m.groups()] ==
   [a.get("machine_context_switches"), own["own_vol_ctxsw"], own["own_invol_ctxsw"],
    int(own["own_cpu_ms"] or 0)],
   "the console line names the machine's and the probe's, with the record's counts", line)
diag("switch: machine %s context switches; probe %s voluntary + %s involuntary, %s ms CPU in %s ms"
     % (a.get("machine_context_switches"), own["own_vol_ctxsw"], own["own_invol_ctxsw"],
        own["own_cpu_ms"], a.get("ran_ms")))
done()
