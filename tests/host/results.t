#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tools/results.py (make results IMG=..., and make run's copy into results/)
# on an image made by tools/mkimage.sh from stand-in inputs, with results
# files of the appliance's shape and hostile names beside them: the good
# ones are copied with the partition's id in their name, the others skipped
# with nothing of their name reaching a host path, the image is only read,
# and nothing is copied twice or replaced.
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, diag, done, ok, record_line  # noqa: E402

for tool in ("sgdisk", "mcopy", "mdir"):
    if not shutil.which(tool):
        print("1..0 # SKIP %s missing (sh tools/deps.sh)" % tool)
        sys.exit(0)

tmp = tempfile.mkdtemp(prefix="tp-results.")
env = dict(os.environ, MTOOLS_SKIP_CHECK="1", SOURCE_DATE_EPOCH="1700000000",
           TIMEPROBE_IMAGE_ID="results-test")
SCRIPT = os.path.join(ROOT, "tools", "results.py")
GOOD = {"0001-abc123.tp1": record_line({"type": "run", "n": 1}) + "\n",
        "0002-deadbeef.tp1": record_line({"type": "run", "n": 2}) + "\n"}
HOSTILE = ["0003-$(touch PWNED).tp1", "0004-a;touch PWNED2.tp1", "-rf.tp1", "0005-x.tp1.sh",
           "0006-\u00e9t\u00e9.tp1", "0007-`id`.tp1", "0008-x y.tp1"]


def sh(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=tmp, **kw)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def results(*args):
    r = sh(sys.executable, SCRIPT, *args)
    return r.returncode, r.stdout + r.stderr


try:
    for name in ("efi", "kernel", "initrd"):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(name + "\n")
    with open(os.path.join(tmp, "cmdline.txt"), "w") as f:
        f.write("console=ttyS0\n")
    img = os.path.join(tmp, "disk.img")
    r = sh("sh", os.path.join(ROOT, "tools", "mkimage.sh"), img, "efi", "kernel", "initrd", "cmdline.txt", "")
    if r.returncode:
        print("Bail out! tools/mkimage.sh failed: " + r.stderr[-300:])
        sys.exit(255)
    placed = []
    for name, text in list(GOOD.items()) + [(h, "TP1 hostile\n") for h in HOSTILE]:
        src = os.path.join(tmp, "src")
        with open(src, "w") as f:
            f.write(text)
        r = sh("mcopy", "-i", img + "@@1M", src, "::/timeprobe/results/" + name)
        if r.returncode == 0:
            placed.append(name)
    diag("on the image: %r" % placed)
    ok(all(g in placed for g in GOOD), "the two good files are on the image")
    ok(len(placed) - len(GOOD) >= 4, "at least four hostile names made it onto the image (%d)"
       % (len(placed) - len(GOOD)))

    before = sha(img)
    out = os.path.join(tmp, "results")
    rc, text = results("--out", out, img)
    diag(text)
    ok(rc == 0, "exit 0 when files were copied (got %d)" % rc)
    got = sorted(os.listdir(out))
    guid8 = subprocess.run(["sgdisk", "-i", "1", img], capture_output=True, text=True).stdout
    guid8 = [l for l in guid8.splitlines() if "unique GUID" in l][0].split(":")[1].strip()[:8].lower()
    ok(got == ["0001-abc123-%s.tp1" % guid8, "0002-deadbeef-%s.tp1" % guid8],
       "the good ones, named NNNN-<machine>-<partition id>.tp1, and nothing else", got)
    with open(os.path.join(out, "0002-deadbeef-%s.tp1" % guid8)) as f:
        ok(f.read() == GOOD["0002-deadbeef.tp1"], "the file's bytes as on the image")
    ok(text.count("skipped a file") == len(placed) - len(GOOD), "one line for each hostile name")
    ok(not any(n.startswith("PWNED") for n in os.listdir(tmp)) and not os.path.exists("PWNED"),
       "no name ran as a command")
    ok(sha(img) == before, "the image is unchanged (read only)")

    rc, text = results("--out", out, img)
    ok(rc == 0 and text.count("already there") == 2 and len(os.listdir(out)) == 2,
       "a second time: already there, nothing copied again", text)

    with open(os.path.join(out, "0001-abc123-%s.tp1" % guid8), "w") as f:
        f.write("another run\n")
    rc, text = results("--out", out, "--name=0001-abc123.tp1", img)
    ok("0001-abc123-%s-2.tp1" % guid8 in os.listdir(out) and len(os.listdir(out)) == 3,
       "--name: that file only; a different file of that name is kept, the copy gets -2",
       sorted(os.listdir(out)))
    with open(os.path.join(out, "0001-abc123-%s.tp1" % guid8)) as f:
        ok(f.read() == "another run\n", "the existing file is not replaced")

    rc, text = results("--out", out, "--name=0003-$(touch PWNED).tp1", img)
    ok(rc == 1 and len(os.listdir(out)) == 3, "--name with a hostile name: nothing copied (exit 1)", text)

    esp = os.path.join(tmp, "esp.img")
    with open(img, "rb") as f, open(esp, "wb") as g:
        f.seek(1 << 20)
        g.write(f.read(62 << 20))
    out2 = os.path.join(tmp, "r2")
    rc, text = results("--out", out2, "--newest", esp)
    ok(rc == 0 and os.listdir(out2) == ["0002-deadbeef-fat.tp1"],
       "a partition alone (a stick's /dev/sdX1): read as one FAT; --newest takes the last",
       os.listdir(out2) if os.path.isdir(out2) else text)

    empty = os.path.join(tmp, "empty.img")
    with open(empty, "wb") as f:
        f.truncate(4 << 20)
    rc, text = results("--out", out2, empty)
    ok(rc == 1 and "no results file" in text, "no FAT, no results: exit 1 and says so", text)
    rc, text = results("--out", out2, os.path.join(tmp, "missing.img"))
    ok(rc == 2, "a missing source: exit 2", text)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
done()
