# SPDX-License-Identifier: MIT
"""The boot tests' machinery (tests/boot/*.t): copies of the disk image with
another command line, the ESP read and written with mtools, the single-file
efi and its images, ISO images, QEMU boots through tools/qemu-run.sh, and the
assertions every appliance run shares. TAP and records are tests/lib/tp1.py's."""
import os
import re
import shutil
import subprocess
import time

from tp1 import BUILD, ROOT, bail, check_keys, diag, ok, records, suite_records, test_dir, timing
import qemu_watch  # the launcher's watcher: its patterns are the contract

IMAGE = os.path.join(BUILD, "timeprobe.img")
# make ARCH=arm64 image's (build/arm64/, beside the x86 build)
IMAGE_ARM64 = os.path.join(BUILD, "arm64", "timeprobe.img")
ESP_OFFSET = "@@1M"     # tools/mkimage.sh puts the ESP at 1 MiB
# Per architecture: its build folder, the stub's name, its cmdline.txt, the
# binutils that read its PE files, and the make command that builds it.
ARCHS = {
    "x86": {"build": BUILD, "stub": "BOOTX64.EFI", "cmdline": "tools/cmdline.txt",
            "objcopy": "objcopy", "objdump": "objdump", "make": "make"},
    "arm64": {"build": os.path.join(BUILD, "arm64"), "stub": "BOOTAA64.EFI",
              "cmdline": "tools/cmdline-arm64.txt", "objcopy": "aarch64-linux-gnu-objcopy",
              "objdump": "aarch64-linux-gnu-objdump", "make": "make ARCH=arm64"},
}

# The words of a boot test whose subject is the boot, not a probe: the quick
# profile and one probe, vdso-check, the quickest (under a second under TCG;
# clocks, the probe these tests ran before, took 4 to 5 s of every boot).
QUICK = "timeprobe.profile=quick timeprobe.probes=vdso-check"


def mtools_env():
    env = dict(os.environ)
    env["MTOOLS_SKIP_CHECK"] = "1"
    return env


def put_cmdline(img, data):
    """cmdline.txt on img, byte for byte."""
    tmp = img + ".cmdline"
    with open(tmp, "wb") as f:
        f.write(data)
    subprocess.run(["mcopy", "-o", "-i", img + ESP_OFFSET, tmp, "::/EFI/timeprobe/cmdline.txt"],
                   env=mtools_env(), check=True)
    os.unlink(tmp)


def image_copy(name, cmdline_extra="", remove=(), source=IMAGE):
    """A copy of the built image (source: IMAGE, or IMAGE_ARM64) with words
    added to cmdline.txt and files removed."""
    if not os.path.exists(source):
        bail("no %s: run `make image` (IMAGE_ARM64: `make ARCH=arm64 image`) first" % source)
    img = os.path.join(test_dir(), name + ".img")
    shutil.copyfile(source, img)
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

# tools/qemu-run.sh's line naming what it chose; the same pair reaches the
# appliance as timeprobe.accel=ACCEL:CPU (SMBIOS OEM string).
LAUNCH = re.compile(r"qemu-run: (tcg|kvm), -cpu (\S+),")
STOPPED = "qemu-run: guest stopped"


def boot(img, machine="q35", timeout=900, cpus=2, extra=(), until=None, cdrom=False,
         silence=None, env=None, fmt=None):
    """Boots img with tools/qemu-run.sh; returns (exit status, seconds, log
    text). With `until`, QEMU is stopped as soon as that text appears in the
    log (status None). The launcher's watcher ends a guest that goes silent
    for `silence` s (its default otherwise) or stops with a KVM internal
    error (status 125), or that runs past `timeout` (status 124); the reason
    and the last lines it printed are then shown as diagnostics. `fmt` names
    the disk's format (vmdk, vdi, vhdx...; raw by default)."""
    global _boots
    _boots += 1
    log = "%s.%d.%s.log" % (img, _boots, machine.replace(",", "_").replace("=", "-"))
    cmd = ["sh", os.path.join(ROOT, "tools/qemu-run.sh"), "--machine", machine,
           "--cpus", str(cpus), "--timeout", str(timeout)]
    if silence:
        cmd += ["--silence", str(silence)]
    if cdrom:
        cmd.append("--cdrom")
    if fmt:
        cmd += ["--format", fmt]
    cmd += [img, "--"] + list(extra)
    t0 = time.monotonic()
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, env=env)
        status = _wait(p, log, until)
    secs = time.monotonic() - t0
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    diag("%s: QEMU %s on %s in %.0f s, log %s" % (os.path.basename(img),
         "exited %s" % status if status is not None else "stopped", machine, secs,
         os.path.relpath(log, ROOT)))
    if STOPPED in text:
        diag("\n".join(l for l in text.splitlines() if l.startswith("qemu-run: ")))
    return status, secs, text


def _wait(p, log, until):
    """Waits for the launcher; with `until`, stops it (and QEMU, in its
    process group) once that text is in the log. Returns its status or None."""
    while True:
        try:
            return p.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass
        if until:
            with open(log, "rb") as f:
                if until.encode() in f.read():
                    os.killpg(p.pid, 15)
                    p.wait()
                    return None


def launch(text):
    """(accel, cpu) that tools/qemu-run.sh chose for a boot, from its log."""
    m = LAUNCH.search(text)
    return (m.group(1), m.group(2)) if m else (None, None)


def kernel_cmdline(text):
    m = re.search(r"Kernel command line: (.*)", text)
    return m.group(1).strip() if m else None


BOOT_PHASES = ("stub_setup", "stub_calibration", "stub_tscsync", "stub_hwlat", "stub_handover",
               "kernel", "pid1_to_first_result", "first_result_to_poweroff")


def check_boot_timeline(recs, name=""):
    """The boot record after the suite: its phases from stub entry add up to
    stub entry -> power-off within 1 %; the timeline is a diagnostic."""
    boot = [r for r in recs if r["type"] == "boot"]
    ok(len(boot) == 1, "%sone boot record" % name, boot)
    if not boot:
        return
    b = boot[0]
    ph = {k: b.get(k + "_us") for k in ("firmware",) + BOOT_PHASES if k + "_us" in b}
    if "reason" in b:
        ok(not ph, "%sno boot timeline, and the record says why: %s" % (name, b["reason"]))
        return
    total = b.get("entry_to_poweroff_us", 0)
    known = [ph.get(k) for k in BOOT_PHASES]
    ok(None not in known and total > 0 and abs(sum(known) - total) <= total / 100,
       "%sthe boot phases add up to stub entry -> power-off within 1 %%" % name,
       "phases %s, total %s" % (ph, total))
    diag("%sboot timeline (us, %s): %s; stub overhead %s; kernel CLOCK_BOOTTIME %s" % (
        name, b.get("clock"), ", ".join("%s %s" % (k, ph.get(k)) for k in ("firmware",) + BOOT_PHASES),
        b.get("stub_overhead_us"), b.get("kernel_boottime_us")))


VERDICT_WORDS = {"good", "fair", "poor", "unknown", "not measured"}


def check_verdict(text, suite, name=""):
    """The verdict (userland/verdict.c): its record just before end, a word
    for every item, a value only where measured, a why where not; the
    human block on the console; under TCG, the emulator said first."""
    v = suite[-2] if len(suite) > 1 and suite[-2]["type"] == "verdict" else {}
    ok(bool(v), "%sthe verdict record comes just before end" % name,
       [r["type"] for r in suite[-3:]])
    items = v.get("items", {})
    bad = [k for k, it in items.items() if it.get("word") not in VERDICT_WORDS
           or (it["word"] == "not measured") != (it.get("value") is None)
           or (it["word"] in ("not measured", "unknown") and not it.get("why"))]
    ok(bool(items) and not bad, "%severy verdict item has a word, a value only where measured "
       "and a why where not or unknown" % name, bad or v)
    block = text[text.rfind("== verdict =="):] if "== verdict ==" in text else ""
    ok(bool(block) and all(it.get("word", "?") in block for it in items.values()),
       "%sthe verdict block is on the console with every word" % name, block[:1500])
    if str(suite[0].get("accel", "")).startswith("tcg"):
        first = block.splitlines()[1] if block.count("\n") > 1 else ""
        ok(v.get("emulated") == "tcg" and "emulator" in first,
           "%sunder TCG the verdict says first that the figures are the emulator's" % name,
           "%s / %s" % (v.get("emulated"), first))


READINESS_ANSWERS = ("safe", "not safe", "unknown")


def check_readiness(suite, name=""):
    """The tsc_readiness record (userland/readiness.c) just before the
    verdict, an answer and a complete list of reasons; on x86 under TCG,
    which has no invariant TSC, `not safe` naming the bit."""
    types = [r["type"] for r in suite]
    rd = suite[-3] if len(suite) > 2 and suite[-3]["type"] == "tsc_readiness" else {}
    ok(bool(rd), "%sthe tsc_readiness record comes just before the verdict" % name, types[-4:])
    reasons = rd.get("reasons", [])
    ok(rd.get("tsc_reliable") in READINESS_ANSWERS and isinstance(rd.get("kernel_args"), list)
       and reasons and all("item" in r and "from" in r and "passed" in r for r in reasons),
       "%sits answer, kernel_args and reasons with their records" % name, rd)
    if rd.get("counter") == "tsc" and str(suite[0].get("accel", "")).startswith("tcg"):
        inv = [r for r in reasons if r["item"] == "invariant_tsc"]
        ok(rd.get("tsc_reliable") == "not safe" and inv and inv[0]["passed"] is False,
           "%sTCG: tsc=reliable not safe, naming the invariant bit" % name,
           (rd.get("tsc_reliable"), inv))


# PID 1's line after reading the stub's file (userland/main.c, stubread.c).
STUB_FILE_LINE = re.compile(r"timeprobe: (\d+) records of the stub taken from /run/timeprobe/stub\.tp1 "
                            r"\((\d+) lines refused, (\d+) values\)")
# A value only the stub writes, or a retired one (the seal, the summaries tsc_calib, tsc_preos,
# hwlat_preos), or any initrd=, as a word of a line.
STUB_WORD = re.compile(r"(?:^| )(?:timeprobe\.(?:tsc_hz|tsc_ref|tsc_calib|bootpart|firmware|tsc_preos|"
                       r"hwlat_preos|boot_tsc|seal)=|\S*initrd=)")


def stub_values(recs):
    """The values of the stub's stub_handoff record (its file's, as printed)."""
    v = {}
    for r in recs:
        if r["type"] == "stub_handoff":
            v.update({k: x for k, x in r.items() if k != "type"})
    return v


def check_stub_file(text, recs, name="", forged=False):
    """The stub's file reached PID 1 whole (docs/stub.md, "The stub's file"):
    as many records as the stub printed from its first to stub_start, none
    refused, its values taken; the kernel got the initramfs through
    LINUX_EFI_INITRD_MEDIA_GUID and no stub value or initrd= on its line
    (forged: cmdline.txt itself holds such words, which the suite refuses)."""
    firsts = [k for k, r in enumerate(recs) if r["type"] == "stub"]
    starts = [k for k, r in enumerate(recs) if r["type"] == "stub_start"]
    printed = starts[-1] - firsts[-1] + 1 if firsts and starts else None
    m = STUB_FILE_LINE.search(text)
    got = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None
    ok(got is not None and printed is not None and got[0] == printed and got[1] == 0 and got[2] >= 3,
       "%sPID 1 took the stub's %s records from its file, none refused" % (name, printed),
       "PID 1: %s" % (got,))
    start = recs[starts[-1]] if starts else {}
    ok(start.get("initrd") == "initrd_media_guid" and start.get("stub_file") == "/run/timeprobe/stub.tp1"
       and "Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID" in text,
       "%sthe stub served the initramfs and its file through LINUX_EFI_INITRD_MEDIA_GUID" % name, start)
    kcl = kernel_cmdline(text) or ""
    ok(kcl and not (STUB_WORD.findall(kcl) if not forged else
                    [w for w in STUB_WORD.findall(kcl) if "initrd=" in w]),
       "%sno %sinitrd= on the kernel's line" % (name, "value of the stub's and no " if not forged else ""),
       kcl)


def check_suite(text, name="", forged=False, launcher=True):
    """The common assertions on one appliance run (forged: cmdline.txt holds
    the stub's words, check_stub_file(); launcher: QEMU was started by
    tools/qemu-run.sh, which tells the guest its accelerator). Returns the
    suite's records."""
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
    # the record writer escapes each byte past ASCII as \u00XX (common/record.c):
    # the line's bytes back, read as the serial log is (UTF-8)
    stub_line = stub_cl[-1]["cmdline"].encode("latin-1", "replace").decode("utf-8", "replace") \
        if stub_cl else ""
    ok(bool(stub_cl) and kcl is not None and kcl == stub_line.strip(),
       "%sthe kernel received the command line the stub built" % name,
       "stub:   %s\nkernel: %s" % (stub_cl[-1]["cmdline"] if stub_cl else None, kcl))
    check_stub_file(text, recs, name, forged)
    run = suite[0] if suite else {}
    ok(run.get("env") == "appliance", "%srun record says env appliance" % name)
    # the suite's announcement before each probe: "probe NAME started, limit N s"
    started = {w[len("probe "):-len(" started")] for w in
               (m.group(1).decode() for m in qemu_watch.ANNOUNCE.finditer(text.encode()))
               if w.startswith("probe ") and w.endswith(" started")}
    ran = {r["probe"] for r in suite if r["type"] in ("result", "skip") and "probe" in r}
    ok(bool(ran) and ran <= started, "%sthe watcher sees the start line of every probe that ran"
       % name, "ran %s, start lines for %s" % (sorted(ran), sorted(started)))
    check_boot_timeline(recs, name)


    check_verdict(text, suite, name)
    check_readiness(suite, name)
    keys = check_keys(text)
    ok(keys == "", "%severy key of every record is in the report's identity schema" % name, keys)
    accel, cpu = launch(text)
    if launcher:
        ok(accel is not None and run.get("accel") == "%s:%s" % (accel, cpu),
           "%sthe run record names the accelerator the launcher chose" % name,
           "launcher: %s %s, run record: %s" % (accel, cpu, run.get("accel")))
    return suite


# userland/progress.c's lines on a console: the run's expected total, then
# "[k/n] probe m:ss of ~m:ss" every 5 s of a probe (its elapsed time is the
# line's own time stamp); with rounds "... in N rounds" and "[k/n] probe
# round r/R m:ss of ~m:ss", k and n counting rounds.
EXPECTED_TOTAL = re.compile(r"timeprobe: (\d+) probes?(?: in \d+ rounds)?, profile (quick|full), "
                            r"expected ~(\d+(?::\d\d)+) in all")
PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] (\S+)(?: round \d+/\d+)? (\d+(?::\d\d)+) of ~(\d+(?::\d\d)+)\r?$",
                      re.M)


def clock_s(text):
    s = 0
    for part in text.split(":"):
        s = s * 60 + int(part)
    return s


def check_progress(text, suite, name=""):
    """The expected total and the progress lines of a run's serial log: their
    presence asserted, their spacing (a timing) a diagnostic."""
    total = EXPECTED_TOTAL.search(text)
    ok(total is not None, "%sthe serial log has the run's expected total" % name)
    lines = {}
    for m in PROGRESS.finditer(text):
        lines.setdefault(m.group(3), []).append(clock_s(m.group(4)))
    ran = {r["for_probe"]: r["ran_ms"] for r in suite
           if r["type"] == "attribution" and isinstance(r.get("ran_ms"), int)}
    long = sorted(p for p, ms in ran.items() if ms >= 5500)
    missing = [p for p in long if p not in lines]
    ok(not missing, "%sa progress line for every probe that ran 5 s or more (%s)"
       % (name, ", ".join(long) or "none"), "no line for %s; lines %s" % (missing, lines))
    for probe, marks in sorted(lines.items()):
        gaps = [b - a for a, b in zip([0] + marks, marks + [ran.get(probe, 0) // 1000])]
        timing(max(gaps) <= 6, "%s%s: progress lines at most ~5 s apart" % (name, probe),
               "at %s s, ran %.1f s" % (marks, ran.get(probe, 0) / 1000))
    if total:
        took = re.search(r"timeprobe: the run took (\d+(?::\d\d)+)", text)
        diag("%sexpected ~%s, took %s" % (name, total.group(3), took.group(1) if took else "?"))


# ---- the single file, build/timeprobe.efi (tests/boot/6*-*.t) ----
EFI = os.path.join(BUILD, "timeprobe.efi")


def efi_section(efi, name, arch="x86"):
    """The bytes of one PE section of a single-file efi (objcopy keeps a PE
    section's exact VirtualSize)."""
    out = os.path.join(test_dir(), "section%s.bin" % name)
    subprocess.run([ARCHS[arch]["objcopy"], "-O", "binary", "-j", name, efi, out], check=True)
    with open(out, "rb") as f:
        data = f.read()
    os.unlink(out)
    return data


def single_efi(name, cmdline, arch="x86"):
    """A copy of build/timeprobe.efi (arch "arm64": build/arm64/timeprobe.efi)
    with another .cmdline: boot/mkefi.sh again from its own .linux and
    .initrd (objcopy --update-section cannot grow a PE section)."""
    a = ARCHS[arch]
    efi = os.path.join(a["build"], "timeprobe.efi")
    if not os.path.exists(efi):
        bail("no %s: run `%s efi` first" % (efi, a["make"]))
    d = test_dir(name)
    parts = {}
    for sec in ("linux", "initrd"):
        parts[sec] = os.path.join(d, sec + ".bin")
        with open(parts[sec], "wb") as f:
            f.write(efi_section(efi, "." + sec, arch))
    cl = os.path.join(d, "cmdline.txt")
    with open(cl, "w") as f:
        f.write(cmdline.strip() + "\n")
    out = os.path.join(d, "timeprobe.efi")
    env = dict(os.environ, ARCH=arch, EFI_OBJCOPY=a["objcopy"], EFI_OBJDUMP=a["objdump"])
    subprocess.run(["sh", os.path.join(ROOT, "boot/mkefi.sh"), out,
                    os.path.join(a["build"], "boot/stub.so"), os.path.join(a["build"], "boot", a["stub"]),
                    parts["linux"], parts["initrd"], cl], check=True, stdout=subprocess.DEVNULL, env=env)
    return out


def efi_default_cmdline(arch="x86"):
    """The command line build/timeprobe.efi (or build/arm64's) carries (its .cmdline section)."""
    return efi_section(os.path.join(ARCHS[arch]["build"], "timeprobe.efi"), ".cmdline",
                       arch).decode().strip()


def single_image(name, efi, cmdline_txt=None, arch="x86"):
    """A disk image whose ESP holds only efi as \\EFI\\BOOT\\BOOTX64.EFI
    (BOOTAA64.EFI for arch "arm64"; tools/mkimage-single.sh), plus
    \\EFI\\timeprobe\\cmdline.txt when given."""
    img = os.path.join(test_dir(), name + ".img")
    cmd = ["sh", os.path.join(ROOT, "tools/mkimage-single.sh"), img, efi]
    if cmdline_txt is not None:
        cl = img + ".cmdline.txt"
        with open(cl, "w") as f:
            f.write(cmdline_txt.strip() + "\n")
        cmd.append(cl)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, ARCH=arch))
    return img


def spcr_table(path, interface=0, space=1, access=1, address=0x3f8, baud=7, width=8):
    """Writes an 80-byte ACPI SPCR (Microsoft SPCR rev. 2) for QEMU's
    -acpitable file=: interface type, GAS (space 1 = I/O, 0 = memory), baud
    code (7 = 115200)."""
    import struct
    t = bytearray(80)
    t[0:4] = b"SPCR"
    struct.pack_into("<I", t, 4, 80)
    t[8] = 2
    t[10:16] = b"TPROBE"
    t[16:24] = b"TPSPCR  "
    t[36] = interface
    t[40:44] = bytes([space, width, 0, access])
    struct.pack_into("<Q", t, 44, address)
    t[52], t[53], t[58] = 1, 4, baud
    t[64:68] = b"\xff\xff\xff\xff"      # not a PCI device
    t[9] = (-sum(t)) & 0xff
    with open(path, "wb") as f:
        f.write(bytes(t))
    return path


def esp_files(img):
    """Every file (not folder) on img's ESP, as mtools paths, sorted."""
    r = subprocess.run(["mdir", "-/", "-b", "-i", img + ESP_OFFSET, "::/"],
                       capture_output=True, text=True, env=mtools_env())
    return sorted(l.strip() for l in r.stdout.splitlines() if l.strip() and not l.strip().endswith("/"))


# ---- ISO images (tools/mkiso.sh), for tests/boot/70-iso.t ----

def iso_build(name, cmdline_extra="", arch="x86"):
    """build/tests/TEST_NAME/<name>.iso from the stub, kernel and initramfs `make image`
    (arch "arm64": `make ARCH=arm64 image`) built, with the image's command
    line words plus cmdline_extra."""
    a = ARCHS[arch]
    build = a["build"]
    parts = [os.path.join(build, p) for p in ("boot/" + a["stub"], "kernel/bzImage", "initramfs.img")]
    for p in parts:
        if not os.path.exists(p):
            bail("no %s: run `%s image` first" % (p, a["make"]))
    words = subprocess.run(["sh", os.path.join(ROOT, "tools/kconfig-words.sh"),
                            os.path.join(build, "kernel/bzImage.config"), "", "2"],
                           capture_output=True, text=True, check=True).stdout.strip()
    iso = os.path.join(test_dir(), name + ".iso")
    r = subprocess.run(["sh", os.path.join(ROOT, "tools/mkiso.sh"), iso] + parts +
                       [os.path.join(ROOT, a["cmdline"]), (words + " " + cmdline_extra).strip()],
                       capture_output=True, text=True, env=dict(os.environ, ARCH=arch))
    if r.returncode:
        bail("tools/mkiso.sh failed: " + (r.stderr or r.stdout).strip()[-500:])
    return iso


def iso_el_torito(iso):
    """xorriso's report of the ISO's El Torito boot catalog."""
    r = subprocess.run(["xorriso", "-indev", iso, "-report_el_torito", "plain"],
                       capture_output=True, text=True)
    return r.stdout


def iso_has_efi_boot(iso):
    """True when the boot catalog holds a no-emulation image for platform UEFI (0xEF)."""
    return any(l.startswith("El Torito boot img") and " UEFI " in l and " none " in l
               for l in iso_el_torito(iso).splitlines())
