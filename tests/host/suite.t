#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The suite against hostile probes (the fault injections of
# userland/probes/inject.c) and hostile surroundings: a grandchild that
# holds stdout, a record flood, odd exit statuses, a closed or full stdout,
# SIGINT, SIGTERM, SIGHUP and SIGQUIT, unknown injections. Each has the outcome
# userland/supervise.h and userland/suite.h promise (TAP).
import os
import re
import resource
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, diag, done, ok, records, run_probe  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)
EXE = os.path.realpath(BIN)
BASE = "tsc"    # a quick real probe before the injected one


def ours():
    """Pids of running processes of this build's binary."""
    pids = set()
    for d in os.listdir("/proc"):
        try:
            if d.isdigit() and os.path.realpath("/proc/%s/exe" % d) == EXE:
                pids.add(int(d))
        except OSError:
            pass
    return pids


def errors(recs, probe):
    return [r for r in recs if r["type"] == "error" and r.get("probe") == probe]


def end_ok(recs, name):
    ok(recs and recs[-1]["type"] == "end" and recs[-1]["records"] == len(recs) - 1,
       "%s: the end record comes last and counts the records" % name, recs[-1:] if recs else "none")


# A grandchild in its own session holding stdout: the probe ended well, so
# no timeout; the grandchild is killed and a record says so.
before = ours()
run = run_probe(BASE, "--inject=grandchild", "--timeout=20")
left = ours() - before
e = errors(run.recs, "grandchild")
ok(e and e[0].get("leftovers_killed") == 1 and "timeout" not in [x["reason"] for x in e],
   "grandchild: not a timeout; one leftover process killed and recorded", e)
ok(not left, "grandchild: nothing left running", left)
for pid in left:
    os.kill(pid, signal.SIGKILL)
diag("grandchild run took %.1f s (limit 20 s)" % run.secs)
end_ok(run.recs, "grandchild")

# A flood of records: the console sees them all, the parent keeps a bounded
# part and an error record counts the rest.
run = run_probe(BASE, "--inject=flood")
e = errors(run.recs, "flood")
flood = [r for r in run.recs if r.get("probe") == "flood" and r["type"] == "result"]
ok(len(flood) == 200000, "flood: the console saw every record (%d)" % len(flood))
ok(e and e[0]["reason"].startswith("record cap") and e[0]["records_not_kept"] > 0,
   "flood: an error record says how many records were not kept", e)
ok(e and run.recs[-1].get("records_not_kept") == e[0]["records_not_kept"],
   "flood: the end record says the same", run.recs[-1:])
ok(run.p.returncode == 0, "flood: the probe itself ended well: exit 0", run.p.returncode)
diag("largest child's maxrss after the flood: %d KB"
     % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
end_ok(run.recs, "flood")

# Exit statuses that are neither 0 nor the skip code are failures with a record.
for name, status in (("exit1", 1), ("exit", 3)):
    run = run_probe(BASE, "--inject=" + name)
    e = errors(run.recs, name)
    ok(e and e[0]["reason"] == "exit" and e[0]["exit_status"] == status,
       "%s: an error record with exit_status %d" % (name, status), e)
    ok(run.p.returncode == 1, "%s: run exits 1" % name, run.p.returncode)
run = run_probe(BASE, "--inject=crash")
e = errors(run.recs, "crash")
ok(e and e[0]["reason"] == "signal" and e[0]["signal"] == signal.SIGSEGV,
   "crash: an error record naming SIGSEGV", e)


def sh(cmd):
    return subprocess.run(["sh", "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)


# Stdout closed or full: exit 1 and one line on stderr, not a silent 0.
PROGRESS = re.compile(r"timeprobe: \d+ probes?, profile \w+, expected |\[\d+/\d+\] ")
for what, redir, says in (("closed stdout", ">&-", "Bad file descriptor"),
                          ("stdout on /dev/full", ">/dev/full", "No space left")):
    p = sh("'%s' run --probes=%s --profile=quick %s" % (BIN, BASE, redir))
    ok(p.returncode == 1, "%s: exit 1" % what, p.returncode)
    # stderr also has the progress lines (stdout is not a terminal: README)
    errs = [l for l in p.stderr.splitlines() if not PROGRESS.match(l)]
    ok(says in p.stderr and len(errs) == 1, "%s: one line saying so" % what,
       p.stderr)

# SIGINT, SIGTERM, SIGHUP (an ssh session closed) and SIGQUIT: the probe is
# stopped, an error record and the end record are written, the exit status
# is 128 + the signal.
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    name = signal.Signals(sig).name
    p = subprocess.Popen([BIN, "run", "--probes=" + BASE, "--profile=quick", "--inject=hang",
                          "--timeout=60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = []
    for line in p.stdout:
        out.append(line)
        if line.startswith("inject-hang"):
            break
    p.send_signal(sig)
    rest, err = p.communicate(timeout=30)
    text = "".join(out) + rest
    recs, _ = records(text)
    ok(p.returncode == 128 + sig, "%s: exit %d" % (name, 128 + sig), p.returncode)
    stop = [r for r in recs if r["type"] == "error" and r.get("reason") == "interrupted"]
    ok(stop and stop[0]["signal"] == sig, "%s: an error record says interrupted by it" % name, stop)
    ok(errors(recs, "hang") and errors(recs, "hang")[0]["reason"] == "stopped",
       "%s: the running probe is recorded as stopped" % name, errors(recs, "hang"))
    ok(name[3:] in err or "stopped by" in err, "%s: a message on stderr" % name, err)
    end_ok(recs, name)

# Unknown injections and bad lists are usage errors like any bad option.
for arg in ("--inject=bogus", "--inject=crash,", "--probes=tsc,,yield"):
    p = sh("'%s' run %s" % (BIN, arg))
    ok(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and not p.stdout,
       "%s: exit 2, one line, nothing run" % arg, p.stderr)
done()
