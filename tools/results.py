# SPDX-License-Identifier: MIT
"""Copies the appliance's results files out of a disk image or a stick.

    tools/results.py [--out DIR] [--newest | --name NAME] SOURCE

SOURCE is a disk image (build/timeprobe.img, a .vmdk made raw, a copy of a
stick) or a block device (/dev/sdb, /dev/sdb1). It is only read: the
partition table with os.open(O_RDONLY), each FAT partition's
\\timeprobe\\results\\ with mtools' mdir and mcopy, which open the image
read-only when they only read. Every file there is copied into DIR
(default results/) as NNNN-<machine id>-<partition id>.tp1: the appliance's
sequence number and machine id from its name, and the first 8 hex digits
of the partition's GUID (GPT) or the disk signature and partition number
(MBR), since every image `make image` makes starts again at 0001. A file
already in DIR with the same bytes is not copied again; an existing name
is never replaced (-2, -3, ... added). --newest copies only the file with
the highest sequence number; --name only that one (the name the run's
serial log says it saved: tools/after-run.sh). One line per file says
where it went.

Names on the image are hostile: only a name of the appliance's own shape
(digits, '-', letters, digits and '.tp1', save.c) is copied; any other is
skipped with a line saying so, and nothing of it reaches a host path.
Exit status: 0 files copied or found, 1 no results on SOURCE, 2 usage or
read error."""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# userland/save.c: <sequence>-<machine id>.tp1
NAME = re.compile(r"^([0-9]{1,9})-([0-9A-Za-z]{1,32})\.tp1$")
RESULTS = "::/timeprobe/results"


def read_at(fd, off, n):
    return os.pread(fd, n, off)


def is_fat(fd, off):
    """A FAT boot sector at byte off: 0x55AA and a FAT type string."""
    b = read_at(fd, off, 512)
    return len(b) == 512 and b[510:512] == b"\x55\xaa" and (b[54:57] == b"FAT" or b[82:87] == b"FAT32")


def gpt_parts(fd, sector):
    """[(offset, id)] of the GPT's partitions, or None when there is no GPT."""
    hdr = read_at(fd, sector, 92)
    if len(hdr) < 92 or hdr[:8] != b"EFI PART":
        return None
    entries_lba, n, size = struct.unpack_from("<QII", hdr, 72)
    if size < 128 or size > 4096 or n > 1024:
        return None
    table = read_at(fd, entries_lba * sector, n * size)
    parts = []
    for i in range(len(table) // size):
        e = table[i * size:(i + 1) * size]
        if e[:16] == b"\0" * 16:
            continue
        first = struct.unpack_from("<Q", e, 32)[0]
        uniq = e[16:32]
        guid = "%08x" % struct.unpack_from("<I", uniq, 0)[0]
        parts.append((first * sector, guid))
    return parts


def mbr_parts(fd):
    """[(offset, id)] of the MBR's primary partitions; [] when there is none."""
    b = read_at(fd, 0, 512)
    if len(b) < 512 or b[510:512] != b"\x55\xaa" or is_fat(fd, 0):
        return []
    sig = struct.unpack_from("<I", b, 440)[0]
    parts = []
    for i in range(4):
        kind = b[446 + 16 * i + 4]
        lba = struct.unpack_from("<I", b, 446 + 16 * i + 8)[0]
        if kind and kind != 0xEE and lba:
            parts.append((lba * 512, "%08x-%d" % (sig, i + 1)))
    return parts


def fat_partitions(path):
    """[(offset, id)] of the FAT file systems on path: its partitions', or
    path itself (a partition, a bare FAT image)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        parts = gpt_parts(fd, 512) or gpt_parts(fd, 4096)
        if parts is None:
            parts = mbr_parts(fd)
        if not parts and is_fat(fd, 0):
            parts = [(0, "fat")]
        return [(off, pid) for off, pid in parts if is_fat(fd, off)]
    finally:
        os.close(fd)


def mtools(args):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    return subprocess.run(args, capture_output=True, text=True, errors="replace", env=env)


def listing(path, off):
    """The names in \\timeprobe\\results\\ of the FAT at off, as mdir prints them."""
    r = mtools(["mdir", "-b", "-i", "%s@@%d" % (path, off), RESULTS])
    if r.returncode:
        return []
    return [os.path.basename(l.rstrip("\n")) for l in r.stdout.splitlines() if l.strip()]


def same_file(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def place(tmp, out, base):
    """tmp moved to out/base.tp1 (or base-N.tp1), never over a file; the path."""
    for n in range(1, 1000):
        dest = os.path.join(out, "%s%s.tp1" % (base, "" if n == 1 else "-%d" % n))
        if os.path.exists(dest) and same_file(dest, tmp):
            os.unlink(tmp)
            return dest, False
        try:
            os.link(tmp, dest)      # fails when dest exists: never replaces
        except FileExistsError:
            continue
        os.unlink(tmp)
        return dest, True
    raise OSError("no free name for %s in %s" % (base, out))


def extract(path, out, newest, only=None):
    found = 0
    for off, pid in fat_partitions(path):
        names = listing(path, off)
        good = []
        for name in names:
            m = NAME.match(name)
            if not m:
                print("results: skipped a file with a name not of the appliance's shape: %r"
                      % name[:80])
                continue
            if only is None or name == only:
                good.append((int(m.group(1)), m.group(2), name))
        good.sort()
        for seq, machine, name in good[-1:] if newest else good:
            fd, tmp = tempfile.mkstemp(prefix=".results-", dir=out)
            os.close(fd)
            r = mtools(["mcopy", "-n", "-i", "%s@@%d" % (path, off), RESULTS + "/" + name, tmp])
            if r.returncode:
                os.unlink(tmp)
                print("results: could not read %s: %s" % (name, r.stderr.strip()[:200]))
                continue
            dest, new = place(tmp, out, "%04d-%s-%s" % (seq, machine, pid))
            print("results: %s %s (\\timeprobe\\results\\%s)" % (dest, "saved" if new else "already there",
                                                               name))
            found += 1
    return found


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/results.py", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="results")
    ap.add_argument("--newest", action="store_true")
    ap.add_argument("--name")
    ap.add_argument("source")
    a = ap.parse_args(argv)
    if not shutil.which("mdir"):
        print("results: mtools missing (apt-get install mtools)", file=sys.stderr)
        return 2
    try:
        os.makedirs(a.out, exist_ok=True)
        n = extract(a.source, a.out, a.newest, a.name)
    except OSError as e:
        print("results: %s: %s" % (a.source, e), file=sys.stderr)
        return 2
    if not n:
        print("results: no results file on %s" % a.source)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
