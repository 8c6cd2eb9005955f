#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/lab.md, run as written: its ```sh blocks that open with
`# lab: NAME`, in order, in one shell (sh), in a scratch folder. Only the
settings block's variables change: TIMEPROBE is this checkout and every
*_PORT a free 127.0.0.1 port (and no other block names a port's default).
So the doc's own commands start nginx, the Pushgateway and Prometheus on
127.0.0.1, build the `net` single file, netboot it in QEMU with
restrict=on and guestfwd to 127.0.0.1 (tests/lib/guestfwd.py), and ask
Prometheus's HTTP API for the machine's clock read cost. Checks: every
package of the doc's apt-get line is installed (else a skip); every block
ends with status 0 (a server block that fails is a skip, with its log's
last line); the file nginx stored is byte for byte the records the guest
printed, every CRC good; the query's answer is the verdict's clock_read_ns
in seconds, exactly; the doc's stop block frees the three ports. The stop
block runs, and the shell's process group is killed, however the test
ends. Slow (the net kernel's build the first time, one netboot under TCG):
`make test-all`. Time (2-CPU machine, load average 10-13, TCG): 62 s with
the net kernel cached, 51 min when it is built (docs/benchmarks.md)."""
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa
from labserve import free_port  # noqa: E402

DOC = os.path.join(ROOT, "docs", "lab.md")
FENCE = re.compile(r"^( *)```sh\n(.*?)^\1```$", re.M | re.S)
MARK = re.compile(r"# lab: (\w+)$")
SERVERS = ("nginx", "pushgateway", "prometheus")
# Seconds a block may run (none for the build: a cold net kernel takes many minutes).
LIMIT_S = {"nginx": 60, "pushgateway": 60, "prometheus": 90, "netboot": 900, "query": 180}


def sh_blocks(text):
    """The doc's ```sh blocks, each dedented to its fence: [lines]."""
    out = []
    for m in FENCE.finditer(text):
        n = len(m.group(1))
        out.append([l[n:] if not l[:n].strip() else l for l in m.group(2).splitlines()])
    return out


def lab_blocks(text):
    """The blocks marked `# lab: NAME`, in order: [(NAME, body)]."""
    return [(MARK.match(b[0]).group(1), "\n".join(b) + "\n")
            for b in sh_blocks(text) if b and MARK.match(b[0])]


def packages(text):
    """The packages of the doc's `apt-get install` line."""
    for b in sh_blocks(text):
        for l in b:
            if l.startswith("apt-get install "):
                return l.split()[2:]
    return []


def set_values(body, values):
    """body with the value of each NAME=VALUE line named in values replaced
    (a comment after it kept); and the names not found exactly once."""
    missing = []
    for name, v in values.items():
        body, n = re.subn(r"^%s=\S+" % name, "%s=%s" % (name, shlex.quote(v)), body, flags=re.M)
        if n != 1:
            missing.append(name)
    return body, missing


def tail(path, n=3):
    try:
        with open(path, errors="replace") as f:
            return " / ".join(l.strip() for l in f.read().strip().splitlines()[-n:])
    except OSError:
        return "(no %s)" % os.path.basename(path)


def port_free(port, seconds=10):
    """True once nothing accepts on 127.0.0.1:port (within seconds)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            time.sleep(0.2)
        except OSError:
            return True
    return False


class Lab:
    """The doc's blocks as one shell script in tmp: each block's output in
    out/NAME.log, its name appended to out/done when it ended well."""

    def __init__(self, tmp, blocks, settings):
        self.tmp, self.out = tmp, os.path.join(tmp, "out")
        os.makedirs(self.out)
        self.settings = settings
        self.run = [(n, b) for n, b in blocks if n not in ("settings", "stop")]
        self.stop_body = dict(blocks).get("stop", "")
        self.proc = None
        lines = ["set -eu", settings]
        for name, body in self.run:
            lines += ["{", body, "} > %s 2>&1" % shlex.quote(self.log(name)),
                      "echo %s >> out/done" % name]
        with open(os.path.join(tmp, "lab.sh"), "w") as f:
            f.write("\n".join(lines) + "\n")

    def log(self, name):
        return os.path.join(self.out, name + ".log")

    def done(self):
        try:
            return open(os.path.join(self.out, "done")).read().split()
        except OSError:
            return []

    def start(self):
        self.proc = subprocess.Popen(["sh", "lab.sh"], cwd=self.tmp, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)

    def wait(self):
        """The script's status, or None when a block ran past its limit
        (then the script is stopped); and the block that did not end well."""
        current, since = None, time.monotonic()
        while self.proc.poll() is None:
            d = self.done()
            now = self.run[len(d)][0] if len(d) < len(self.run) else None
            if now != current:
                current, since = now, time.monotonic()
                diag("lab: block %s" % now)
            if now in LIMIT_S and time.monotonic() - since > LIMIT_S[now]:
                self.kill()
                return None, now
            time.sleep(1)
        d = self.done()
        return self.proc.returncode, (self.run[len(d)][0] if len(d) < len(self.run) else None)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def stop(self):
        """The doc's stop block (after the settings block)."""
        if self.stop_body:
            subprocess.run(["sh", "-c", self.settings + "\n" + self.stop_body], cwd=self.tmp,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, timeout=30)

    def kill_all(self):
        """Whatever the script started and is still there (its process group)."""
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def check_stored(lab_dir, text):
    """The guest's run: the stored file against the printed records; the machine id and verdict."""
    recs, _ = records(text)
    suite = check_suite(text, "lab: ", launcher=False)     # the doc's own qemu-system-x86_64 line
    mid = (suite[0] if suite else {}).get("machine_id", "unknown")
    stored = os.path.join(lab_dir, "nginx", "www", "results", mid, "0001.tp1")
    data = open(stored, "rb").read().decode() if os.path.exists(stored) else ""
    srecs, corrupt = records(data)
    printed, lines = record_lines(text), record_lines(data)
    at = printed.index(lines[0]) if lines and lines[0] in printed else 0
    ok(srecs and not corrupt and lines == printed[at:at + len(lines)] and len(srecs) == len(data.splitlines()),
       "nginx stored results/<machine id>/0001.tp1: the records the guest printed, in order, "
       "every CRC good (%d records)" % len(srecs))
    ends = ("run", "end")
    ok(srecs and [r for r in srecs if r["type"] in ends] == [r for r in suite if r["type"] in ends],
       "the stored file holds this run, its run and end records")
    ok(re.search(r"upload: 201 Created http://10\.0\.2\.100:80/results/%s/0001\.tp1" % mid, ANSI.sub("", text)),
       "the guest's console line of the upload")
    return mid, first(recs, "verdict")


def check_query(log, mid, verdict):
    """The doc's query's answer: one sample, this machine's, the verdict's clock read cost."""
    want = (verdict.get("items", {}).get("clock_read_ns", {}).get("value") or 0) * 1e-9
    try:
        ans = json.loads(open(log).read().strip().splitlines()[-1])
        res = ans["data"]["result"]
    except (OSError, ValueError, IndexError, KeyError, TypeError) as e:
        res = []
        diag("the query's answer: %s" % e)
    got = [(r["metric"].get("instance"), float(r["value"][1])) for r in res]
    ok(want and got == [(mid, want)],
       "Prometheus's /api/v1/query gives the machine's clock read cost, the verdict's value "
       "(%s; record %r s)" % (got, want))


def main():
    tp_report()     # check_suite() reads the keys with it
    text = open(DOC).read()
    missing = [p for p in packages(text) if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
        != "install ok installed"]
    if not packages(text) or missing:
        print("1..0 # SKIP %s" % ("not installed: " + " ".join(missing) if missing
                                  else "docs/lab.md has no apt-get install line"))
        sys.exit(0)
    blocks = lab_blocks(text)
    names = [n for n, _ in blocks]
    ok(names[:1] == ["settings"] and names[-1:] == ["stop"] and len(set(names)) == len(names)
       and all(s in names for s in SERVERS + ("build", "netboot", "query")),
       "docs/lab.md's blocks: settings first, stop last, each once (%s)" % " ".join(names))
    settings = dict(blocks).get("settings", "")
    defaults = dict(re.findall(r"^(\w+_PORT)=(\d+)", settings, re.M))
    ok(set(defaults) == {"NGINX_PORT", "PUSHGW_PORT", "PROM_PORT"},
       "the settings block sets the three ports (%s)" % defaults)
    named = [(n, p) for n, b in blocks if n != "settings" for p in defaults.values() if re.search(r"\b%s\b" % p, b)]
    ok(not named, "no other block names a port's default: the ports come from the settings", named)
    ports = {k: str(free_port()) for k in defaults}
    tmp = test_dir("lab")
    shutil.rmtree(tmp)
    os.makedirs(tmp)
    settings, unset = set_values(settings, dict(ports, TIMEPROBE=ROOT))
    ok(not unset, "the settings block sets TIMEPROBE and each port once", unset)
    lab = Lab(tmp, blocks, settings)

    def on_signal(sig, _frame):
        lab.kill()
        lab.stop()
        lab.kill_all()
        sys.exit(128 + sig)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    lab_dir = os.path.join(tmp, "lab")
    freed = False
    try:
        t0 = time.monotonic()
        lab.start()
        status, failed = lab.wait()
        diag("lab: the blocks ran in %.0f s (status %s)" % (time.monotonic() - t0, status))
        if failed in SERVERS and status is not None:
            skip("docs/lab.md's lab", "%s could not start on 127.0.0.1: %s" % (
                failed, tail(lab.log(failed), 1) + " | " + tail(os.path.join(lab_dir, "nginx", "error.log")
                                                              if failed == "nginx" else
                                                              os.path.join(lab_dir, failed + ".log"), 1)))
            return
        ok(status == 0 and failed is None, "every block of docs/lab.md ran with status 0",
           "block %s: %s\n%s\n%s" % (failed, "ran past %s s" % LIMIT_S.get(failed) if status is None
                                     else "status %s" % status, lab.proc.stderr.read().decode()[-500:],
                                     tail(lab.log(failed), 15) if failed else ""))
        if status == 0:
            mid, verdict = check_stored(lab_dir, open(lab.log("netboot"), errors="replace").read())
            check_query(lab.log("query"), mid, verdict)
    finally:
        lab.kill()
        lab.stop()
        freed = all(port_free(int(p)) for p in ports.values())
        lab.kill_all()
    ok(freed, "the doc's stop block freed the three ports")


main()
done()
