# SPDX-License-Identifier: MIT
"""Helpers for timeprobe's boot and host tests: TAP output, reading TP1
records out of a serial log, and booting a copy of the disk image in QEMU."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
IMAGE = os.path.join(BUILD, "timeprobe.img")
ESP_OFFSET = "@@1M"     # tools/mkimage.sh puts the ESP at 1 MiB

_n = 0
_failed = 0


def ok(cond, name, diag=None):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, name), flush=True)
    if not cond:
        _failed += 1
        if diag:
            for line in str(diag).splitlines()[:20]:
                print("#   " + line)
    return cond


def diag(msg):
    for line in str(msg).splitlines():
        print("# " + line, flush=True)


def done():
    print("1..%d" % _n, flush=True)
    sys.exit(1 if _failed else 0)


def bail(msg):
    print("Bail out! " + msg, flush=True)
    sys.exit(255)


ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>c])")


def records(text):
    """Returns (records, corrupt): every TP1 record in a log, in order.
    A record may follow firmware escapes or other text on its line."""
    recs, corrupt = [], 0
    for raw in text.replace("\r", "").split("\n"):
        line = ANSI.sub("", raw)
        i = line.find("TP1 {")
        if i < 0:
            continue
        line = line[i:].rstrip()
        m = re.match(r"^TP1 (\{.*\}) \*([0-9a-f]{8})$", line)
        if not m or zlib.crc32(m.group(1).encode()) != int(m.group(2), 16):
            corrupt += 1
            continue
        try:
            recs.append(json.loads(m.group(1)))
        except ValueError:
            corrupt += 1
    return recs, corrupt


def suite_records(recs):
    """The suite's records: from the last 'run' to the 'end' after it."""
    start = max((i for i, r in enumerate(recs) if r["type"] == "run"), default=None)
    if start is None:
        return []
    out = []
    for r in recs[start:]:
        out.append(r)
        if r["type"] == "end":
            break
    return out


def mtools_env():
    env = dict(os.environ)
    env["MTOOLS_SKIP_CHECK"] = "1"
    return env


def image_copy(name, cmdline_extra="", remove=()):
    """A copy of the built image with words added to cmdline.txt and files removed."""
    if not os.path.exists(IMAGE):
        bail("no %s: run `make image` first" % IMAGE)
    d = os.path.join(BUILD, "tests")
    os.makedirs(d, exist_ok=True)
    img = os.path.join(d, name + ".img")
    shutil.copyfile(IMAGE, img)
    global _default_cmdline
    _default_cmdline = esp_read(img, "/EFI/timeprobe/cmdline.txt").strip()
    if cmdline_extra:
        set_cmdline(img, cmdline_extra)
    for path in remove:
        subprocess.run(["mdel", "-i", img + ESP_OFFSET, "::" + path], env=mtools_env(), check=True)
    return img


_default_cmdline = ""


def set_cmdline(img, extra, base=None):
    """Rewrites cmdline.txt on img: the image's default line plus extra."""
    line = (_default_cmdline if base is None else base) + " " + extra
    tmp = img + ".cmdline"
    with open(tmp, "w") as f:
        f.write(line.strip() + "\n")
    subprocess.run(["mcopy", "-o", "-i", img + ESP_OFFSET, tmp, "::/EFI/timeprobe/cmdline.txt"],
                   env=mtools_env(), check=True)
    os.unlink(tmp)


def esp_list(img, path="::/timeprobe/results"):
    r = subprocess.run(["mdir", "-b", "-i", img + ESP_OFFSET, path],
                       capture_output=True, text=True, env=mtools_env())
    return sorted(os.path.basename(l.strip()) for l in r.stdout.splitlines() if l.strip())


def esp_read(img, path):
    return subprocess.run(["mtype", "-i", img + ESP_OFFSET, "::" + path], capture_output=True,
                          text=True, env=mtools_env(), check=True).stdout


_boots = 0


def boot(img, machine="q35", timeout=900, cpus=2, extra=(), until=None, cdrom=False):
    """Boots img; returns (exit status, seconds, log text). With `until`, QEMU
    is stopped as soon as that text appears in the log (status None)."""
    global _boots
    _boots += 1
    log = "%s.%d.%s.log" % (img, _boots, machine.replace(",", "_").replace("=", "-"))
    cmd = ["sh", os.path.join(ROOT, "tools/qemu-run.sh"), "--machine", machine,
           "--cpus", str(cpus), "--timeout", str(timeout)]
    if cdrom:
        cmd.append("--cdrom")
    cmd += [img, "--"] + list(extra)
    t0 = time.monotonic()
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        status = None
        while True:
            try:
                status = p.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                pass
            if until:
                with open(log, "rb") as f:
                    if until.encode() in f.read():
                        os.killpg(p.pid, 15)
                        p.wait()
                        status = None
                        break
    secs = time.monotonic() - t0
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    diag("%s: QEMU %s on %s in %.0f s, log %s" % (os.path.basename(img),
         "exited %s" % status if status is not None else "stopped", machine, secs,
         os.path.relpath(log, ROOT)))
    return status, secs, text


def kernel_cmdline(text):
    m = re.search(r"Kernel command line: (.*)", text)
    return m.group(1).strip() if m else None


def check_suite(text, name=""):
    """The common assertions on one appliance run. Returns the suite's records."""
    recs, corrupt = records(text)
    suite = suite_records(recs)
    ok(corrupt == 0, "%sno corrupt records in the serial log" % name, "%d corrupt" % corrupt)
    ok(any(r["type"] == "stub" for r in recs), "%sthe stub's record is there" % name)
    ok(bool(suite) and suite[0]["type"] == "run", "%sthe first suite record is run" % name)
    ok(bool(suite) and suite[-1]["type"] == "end", "%sthe last suite record is end" % name,
       text[-2000:])
    if suite and suite[-1]["type"] == "end":
        ok(suite[-1]["records"] == len(suite) - 1, "%send counts the %d records before it"
           % (name, len(suite) - 1), "end says %s" % suite[-1]["records"])
    stub_cl = [r for r in recs if r["type"] == "stub_cmdline"]
    kcl = kernel_cmdline(text)
    ok(bool(stub_cl) and kcl is not None and kcl == stub_cl[-1]["cmdline"].strip(),
       "%sthe kernel received the command line the stub built" % name,
       "stub:   %s\nkernel: %s" % (stub_cl[-1]["cmdline"] if stub_cl else None, kcl))
    run = suite[0] if suite else {}
    ok(run.get("env") == "appliance", "%srun record says env appliance" % name)
    return suite
