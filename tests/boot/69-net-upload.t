#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The `net` single file (kernel/variants/net.config: the kernel's DHCP,
the lab's NICs) netbooted under OVMF PXE into the lab's servers, with no
packet off this machine: QEMU's user network with restrict=on (the guest
reaches nothing but the forwards), TFTP for timeprobe.efi, and guestfwd
10.0.2.100:80 to nginx and 10.0.2.101:9091 to prometheus-pushgateway, both
started on free 127.0.0.1 ports (tests/lib/labserve.py), each guest
connection through tests/lib/guestfwd.py to 127.0.0.1 only. Checks: the file
nginx stored is byte for byte the records the guest printed, every CRC
good; the Pushgateway's /metrics holds the verdict's clock read cost with
the record's value, under the name tp-report's --textfile gives it; with
nginx stopped, the run still ends, prints its records and one failed
`upload` record, and powers off. Slow (the net kernel's build the first
time, two boots): run by `make test-all`, not `make test`."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa
from labserve import NGINX, PUSHGW, start_nginx, start_pushgateway, stop_all, stop_nginx, stop_on_signals  # noqa: E402

OUT = os.path.join(BUILD, "variant-net")
UPLOAD = "http://10.0.2.100/results/"
PUSH = "http://10.0.2.101:9091"
APPEND = "timeprobe.profile=quick timeprobe.probes=clocks timeprobe.upload=%s timeprobe.push=%s" % (UPLOAD, PUSH)

if not os.path.exists(NGINX) or not PUSHGW:
    print("1..0 # SKIP nginx or prometheus-pushgateway not installed (tools/deps.sh installs them)")
    sys.exit(0)
cmd = ["make", "-C", ROOT, "--no-print-directory", "efi", "B=" + os.path.relpath(OUT, ROOT),
       "KVARIANT=net", "APPEND=" + APPEND]
diag("running: " + " ".join(cmd))
p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
ok(p.returncode == 0, "make efi KVARIANT=net", p.stdout[-3000:])
if p.returncode != 0:
    done()
tmp = tempfile.mkdtemp(prefix="timeprobe-netboot.")
stop_on_signals(tmp)


def netboot(port, push_port):
    """One PXE boot of the net file with the two forwards: (status, log text)."""
    tftp = test_dir("tftp-net")
    shutil.copyfile(os.path.join(OUT, "timeprobe.efi"), os.path.join(tftp, "timeprobe.efi"))
    blank = os.path.join(test_dir(), "netboot-net.img")
    with open(blank, "wb") as f:
        f.truncate(1 << 20)      # no partition table: nothing to boot from disk
    fwd = "cmd:%s %s" % (sys.executable, os.path.join(ROOT, "tests", "lib", "guestfwd.py"))
    status, _secs, text = boot(blank, "q35", timeout=900, extra=[
        "-netdev", "user,id=n0,restrict=on,tftp=%s,bootfile=timeprobe.efi,"
        "guestfwd=tcp:10.0.2.100:80-%s %d,guestfwd=tcp:10.0.2.101:9091-%s %d"
        % (tftp, fwd, port, fwd, push_port),
        "-device", "virtio-net-pci,netdev=n0,romfile="])
    return status, text


def uploaded(port, push_port, www):
    status, text = netboot(port, push_port)
    plain = ANSI.sub("", text)
    ok(status == 0, "QEMU exited by itself with status 0", plain[-3000:])
    recs, _ = records(text)
    suite = check_suite(text, "net: ")
    run = suite[0] if suite else {}
    mid = run.get("machine_id", "unknown")
    stored = os.path.join(www, "results", mid, "0001.tp1")
    data = open(stored, "rb").read().decode() if os.path.exists(stored) else ""
    srecs, corrupt = records(data)
    printed = set(record_lines(text))
    ok(srecs and not corrupt and all(l in printed for l in record_lines(data))
       and len(record_lines(data)) == len(data.splitlines()),
       "nginx stored results/<machine id>/0001.tp1: every line a record the guest printed, "
       "every CRC good (%d records)" % len(srecs))
    ok([r for r in srecs if r["type"] in ("run", "end")] == [r for r in suite if r["type"] in ("run", "end")],
       "the stored file holds this run, its run and end records")
    up = [r for r in recs if r["type"] == "upload"]
    ok(len(up) == 2 and up[0]["ok"] and up[0]["status"] == 201 and up[1]["ok"],
       "the upload records: results 201, figures stored", up)
    ok(re.search(r"upload: 201 Created http://10\.0\.2\.100:80/results/%s/0001\.tp1" % mid, plain),
       "the console line of the upload")
    verdict = first(recs, "verdict")
    want = (verdict.get("items", {}).get("clock_read_ns", {}).get("value") or 0) * 1e-9
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % push_port, timeout=10).read().decode()
    got = [float(m.group(1)) for m in re.finditer(
        r'^timeprobe_verdict_clock_read_seconds\{[^}]*instance="%s"[^}]*\} (\S+)$' % mid, body, re.M)]
    ok(len(got) == 1 and got[0] == want,
       "the Pushgateway holds the verdict's clock read cost (%s, record %r)" % (got, want))
    pushed = set(re.findall(r'^(timeprobe_verdict_\w+)\{[^}]*instance="%s"' % mid, body, re.M))
    log = os.path.join(tmp, "guest.log")
    with open(log, "w") as f:
        f.write(text)
    prom = os.path.join(tmp, "guest.prom")
    subprocess.run([tp_report(), "--textfile=" + prom, log], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names = set(re.findall(r"^(timeprobe_verdict_\w+)\{", open(prom).read(), re.M)) if os.path.exists(prom) else set()
    ok(pushed and pushed == names, "the pushed names are tp-report's --textfile names", (pushed, names))


def server_down(port, push_port):
    stop_nginx()
    status, text = netboot(port, push_port)
    recs, _ = records(text)
    suite = check_suite(text, "down: ")
    up = [r for r in recs if r["type"] == "upload" and r["what"] == "results"]
    ok(status == 0, "server down: QEMU exited by itself with status 0 (powered off)", text[-2000:])
    ok(len(up) == 1 and not up[0]["ok"] and up[0]["elapsed_ms"] <= 60000,
       "server down: one failed upload record, within 60 s", up)
    ok(bool(suite) and suite[-1]["type"] == "end", "server down: the run printed its records to end")


try:
    port, www = start_nginx(tmp)
    push_port = start_pushgateway()
    if not port or not push_port:
        skip("the netboot upload", "%s could not start on 127.0.0.1"
             % ("nginx" if not port else "prometheus-pushgateway"))
    else:
        uploaded(port, push_port, www)
        server_down(port, push_port)
finally:
    stop_all(tmp)
done()
