#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the synthetic logs tests/data/report-*.log used by tests/report/.

The logs are committed; run this only to change them (then regenerate the
golden files: REPORT_GOLDEN_UPDATE=1 prove tests/report/golden.t). Figures
are made up but plausible; the damage in report-qemu.log is on purpose and
its count is asserted by golden.t: 1 bad CRC, 1 cut short, 1 joined.
Records are framed by tools/tp1rec.py, the one Python writer.
"""
import os
import random
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
sys.path.insert(0, os.path.join(DATA, "..", "..", "tools"))
from tp1rec import record_line as rec  # noqa: E402


def r1(x):
    return round(x, 1)


def r2(x):
    return round(x, 2)


class Run:
    """The records of one suite run, from its firmware stub to its end."""

    def __init__(self, rng, env, machine, cpu_model, cpus, kernel, cs, sweep,
                 slow, repeat=0, variant="generic"):
        self.rng, self.env, self.slow, self.repeat = rng, env, slow, repeat
        self.head = {"type": "run", "version": "0.1.0", "env": env,
                     "kernel": kernel, "cmdline": "", "cpu_model": cpu_model,
                     "cpus": cpus, "clocksource": cs,
                     "start": "2024-05-14T09:12:%02dZ" % rng.randrange(60),
                     "machine": machine, "variant": variant,
                     "profile": "quick"}
        if env == "appliance":
            self.head["cmdline"] = ("console=ttyS0,115200 quiet clocksource=%s "
                                    "timeprobe.after=poweroff" % cs)
        else:
            self.head["cmdline"] = "BOOT_IMAGE=/vmlinuz-%s root=/dev/nvme0n1p2 ro" % kernel
        self.sweep = sweep

    def jitter(self, x, pct=3.0):
        return x * (1 + self.rng.uniform(-pct, pct) / 100)

    def ctx(self, it, obj):
        out = {"type": obj.pop("type")}
        if self.repeat:
            out["iteration"] = it
        out.update(obj)
        return out

    def clocks(self, it):
        out = []
        base = {"tsc": 1.0, "kvm-clock": 1.3, "hpet": 60.0, "acpi_pm": 95.0}
        names = [("clock_gettime(CLOCK_MONOTONIC)", 1.0),
                 ("clock_gettime(CLOCK_REALTIME)", 1.02),
                 ("clock_gettime(CLOCK_MONOTONIC_RAW)", 1.05),
                 ("gettimeofday()", 1.04)]
        for cs in self.sweep:
            for name, f in names:
                vdso = cs in ("tsc", "kvm-clock")
                ns = self.jitter(18.0 * self.slow * base[cs] * f + (0 if vdso else 55 * self.slow))
                out.append(self.ctx(it, {
                    "type": "result", "probe": "clocks", "name": name,
                    "path": "vdso" if vdso else "syscall", "clocksource": cs,
                    "ns_per_call": r1(ns), "ticks_per_call": r1(ns * 2.995),
                    "ns_per_call_min": r1(ns * 0.97), "ns_per_call_p99": r1(ns * 1.4),
                    "resolution_ns": 1, "granularity_ns": 1 if vdso else int(ns),
                    "user_pct": 100 if vdso else 31, "sys_pct": 0 if vdso else 69,
                    "ctxsw": 0}))
            out.append(self.ctx(it, {
                "type": "result", "probe": "clocks",
                "name": "clock_gettime(CLOCK_MONOTONIC_COARSE)", "path": "vdso",
                "clocksource": cs, "ns_per_call": r1(self.jitter(4.1 * self.slow)),
                "ticks_per_call": r1(self.jitter(12.3 * self.slow)),
                "resolution_ns": 4000000, "granularity_ns": 4000000,
                "user_pct": 100, "sys_pct": 0, "ctxsw": 0}))
        out.append(self.ctx(it, {
            "type": "result", "probe": "clocks", "name": "rdtsc", "path": "insn",
            "ns_per_call": r1(self.jitter(6.5 * self.slow)),
            "ticks_per_call": r1(self.jitter(19.5 * self.slow)),
            "resolution_ns": 0.3, "granularity_ns": 0.3, "ctxsw": 0}))
        return out

    def itimer(self, it):
        out = []
        for load in (0, 4):
            for timer in ("ITIMER_REAL", "ITIMER_VIRTUAL"):
                for us in (1000, 10000, 100000):
                    late = (40 if timer == "ITIMER_REAL" else 3900) * self.slow / 2
                    late *= 1 + load * 0.4
                    actual = self.jitter(us + late, 0.5)
                    out.append(self.ctx(it, {
                        "type": "result", "probe": "itimer",
                        "name": "%s %dus" % (timer, us), "timer": timer,
                        "load": load, "requested_us": us, "claimed_us": us,
                        "actual_us": r1(actual),
                        "accuracy_pct": r2(100 * actual / us)}))
        return out

    def wakeup(self, it):
        out = []
        for us in (100, 1000):
            width = 1000 if self.slow < 3 else 10000
            lat = self.jitter(9000 * self.slow / 2, 10)
            n = 2000 if us == 100 else 500
            buckets, left = {}, n
            centre = int(lat // width)
            for i, share in ((centre - 1, 0.2), (centre, 0.5), (centre + 1, 0.2),
                             (centre + 3, 0.08)):
                if i < 0:
                    i = 0
                c = int(n * share)
                buckets[str(i)] = buckets.get(str(i), 0) + c
                left -= c
            out.append(self.ctx(it, {
                "type": "result", "probe": "wakeup",
                "name": "clock_nanosleep %dus" % us, "period_us": us,
                "samples": n, "min_ns": int(lat * 0.6), "avg_ns": int(lat),
                "p99_ns": int(lat * 3.1), "max_ns": int(lat * 9),
                "missed": self.rng.randrange(3),
                "hist": {"width_ns": width, "buckets": buckets,
                         "overflow": left, "outliers_ns": [int(lat * 9), int(lat * 7)]}}))
        return out

    def yield_(self, it, cpus):
        out = []
        for t in (1, 2, 4, 8):
            per = self.jitter(2.1e6 / self.slow) / max(1, t / cpus)
            total = per * min(t, cpus) if t > cpus else per * t
            out.append(self.ctx(it, {
                "type": "result", "probe": "yield", "name": "sched_yield %d threads" % t,
                "threads": t, "total_per_s": int(total),
                "avg_per_thread_per_s": int(total / t),
                "zero_work_threads": 0 if t <= cpus else self.rng.randrange(2),
                "variance": r2(self.jitter(0.01 * t, 30))}))
        return out

    def switch(self, it):
        return [self.ctx(it, {
            "type": "result", "probe": "switch", "name": "pipe ping-pong",
            "ns_per_switch": r1(self.jitter(1900 * self.slow)),
            "switches": 200000})]

    def tsc(self, it):
        return [self.ctx(it, {
            "type": "result", "probe": "tsc", "name": "tsc",
            "invariant": True, "tsc_hz": 2995001234 + self.rng.randrange(-900, 900),
            "drift_ppm": r2(self.jitter(0.4, 50)), "backward_steps": 0})]

    def noise(self, it):
        return [self.ctx(it, {
            "type": "result", "probe": "noise", "name": "noise cpu%d" % c,
            "cpu": c, "threshold_ns": 1000, "events": self.rng.randrange(20, 80),
            "max_ns": self.rng.randrange(3000, 40000), "noise_pct": r2(self.jitter(0.05, 40))})
            for c in range(2)]

    def records(self, probes, skips=(), errors=(), end=True, stub=None, calib=None):
        out = []
        if stub:
            out.append({"type": "stub", "version": "0.1.0", "firmware": stub,
                        "uefi": "2.70", "secure_boot": False})
        for c in calib or ():
            out.append(c)
        out.append(self.head)
        ok = skipped = failed = 0
        for it in range(1, max(1, self.repeat) + 1):
            for p in probes:
                if p in skips:
                    out.append(self.ctx(it, {"type": "skip", "probe": p, "reason": skips[p]}))
                    skipped += 1
                elif p in errors:
                    out.append(self.ctx(it, {"type": "error", "probe": p, "reason": errors[p]}))
                    failed += 1
                else:
                    fn = getattr(self, p if p != "yield" else "yield_")
                    out += fn(it, self.head["cpus"]) if p == "yield" else fn(it)
                    ok += 1
        if end:
            out.append({"type": "end", "probes_ok": ok, "probes_skipped": skipped,
                        "probes_failed": failed,
                        # the suite's records before end, from its run record on
                        "records": len(out) - out.index(self.head)})
        return out


def calib(rng, refs):
    out = []
    for ref, spread in refs:
        out.append({"type": "calib", "source": "stub", "ref": ref,
                    "tsc_hz": 2995000000 + rng.randrange(-4000, 4000),
                    "spread_ppm": spread, "rounds": 5})
    out.append({"type": "calib_summary", "source": "stub", "ref": refs[0][0],
                "tsc_hz": 2995001000 + rng.randrange(-300, 300), "spread_ppm": refs[0][1]})
    return out


PROBES = ["clocks", "itimer", "wakeup", "yield", "switch", "tsc", "noise"]

OVMF = ("\x1b[2J\x1b[01;01H\x1b[=3h\x1b[2J\x1b[01;01H\x1b[2J\x1b[01;01H\x1b[=3h"
        "\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK QM00001 \" "
        "from PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x0,0xFFFF,0x0)\r\n"
        "BdsDxe: starting Boot0001 \"UEFI QEMU HARDDISK QM00001 \" from "
        "PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x0,0xFFFF,0x0)\r\n")

KMSG = [
    "Linux version {k} (builder@timeprobe) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC",
    "Command line: {cmdline}",
    "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'",
    "tsc: Detected 2995.000 MHz processor",
    "clocksource: tsc-early: mask: 0xffffffffffffffff max_cycles: 0x2b2c3f6f6c8",
    "Memory: 223456K/261752K available (16384K kernel code)",
    "smpboot: Allowing 2 CPUs, 0 hotplug CPUs",
    "clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns",
    "Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled",
    "serial8250: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A",
    "Freeing unused kernel image (initmem) memory: 2680K",
    "Run /init as init process",
]


def kline(t, msg):
    return "[%12.6f] %s\r\n" % (t, msg)


def qemu_log(rng):
    run = Run(rng, "appliance", "QEMU Standard PC (Q35 + ICH9, 2009)", "QEMU Virtual CPU version 2.5+",
              2, "6.1.0", "tsc", ["tsc", "hpet", "acpi_pm"], slow=3.2)
    recs = run.records(PROBES, skips={"noise": "TCG: emulated CPU, noise figures would be the emulator's"},
                       errors={"switch": "timed out after 20 s (killed)"},
                       stub="EDK II", calib=calib(rng, [("acpi_pm", 38), ("pit", 120)]))
    lines = [rec(r) for r in recs]
    out = ["\xfe\xf8\x80\x00\xe0\x1c\xff\xfc\x86\x0f~\xf0\r\n", OVMF,
           "\x1b]0;timeprobe\x07\x1b[0mtimeprobe stub 0.1.0: kernel 6.1.0 (generic)\r\n"]
    li = 0
    # stub and calib records: the stub prints them before starting Linux
    while recs[li]["type"] != "run":
        pre = "\x1b[1;1H\x1b[0m" if li == 0 else ""
        out.append(pre + lines[li] + "\r\n")
        li += 1
    t = 0.0
    for m in KMSG:
        out.append(kline(t, m.format(k="6.1.0", cmdline=run.head["cmdline"])))
        t += rng.uniform(0.01, 0.3)
    out.append("\x00\x00" + lines[li] + "\r\n")       # the run record after NULs
    li += 1
    out.append("timeprobe 0.1.0: appliance, 7 probes, profile quick\r\n")
    damaged = {"bad": False, "split": False, "cut": False}
    while li < len(lines):
        r = recs[li]
        line = lines[li]
        if r["type"] == "result" and r["probe"] == "clocks" and \
                r["name"] == "clock_gettime(CLOCK_REALTIME)" and r.get("clocksource") == "hpet" \
                and not damaged["bad"]:
            # a byte flipped on the wire: the CRC no longer matches
            i = line.index('"ns_per_call":') + len('"ns_per_call":')
            line = line[:i] + chr(ord(line[i]) ^ 0x04) + line[i + 1:]
            damaged["bad"] = True
        if r["type"] == "result" and r["probe"] == "clocks" and r["name"] == "gettimeofday()" \
                and r.get("clocksource") == "tsc" and not damaged["split"]:
            # printk wrote in the middle of the record
            i = line.index('"ticks_per_call"') + 5
            out.append(line[:i] + kline(t, "random: crng init done"))
            out.append(kline(t + 0.01, "clocksource: Switched to clocksource hpet"))
            out.append(line[i:] + "\r\n")
            damaged["split"] = True
            li += 1
            continue
        if r["type"] == "result" and r["probe"] == "itimer" and r["name"] == "ITIMER_VIRTUAL 100000us" \
                and r["load"] == 4 and not damaged["cut"]:
            # the probe's output ended half-way: the rest never came
            out.append(line[:70] + "\r\n")
            out.append(kline(t, "timeprobe: itimer: child 213 exited on signal 9"))
            damaged["cut"] = True
            li += 1
            continue
        if r["type"] == "result" and r["probe"] == "itimer" and r["name"] == "ITIMER_REAL 1000us" \
                and r["load"] == 0:
            out.append("\r\nitimer        requested     claimed       actual (accuracy)\r\n")
        if r["type"] == "result" and r["probe"] == "wakeup" and r["name"].endswith("1000us"):
            out.append("  \x1b[33m" + line + "\x1b[0m  \r\n")   # colour and padding
            li += 1
            continue
        if r["type"] == "end":
            out.append(kline(t, "sysrq: Power Off"))
        out.append(line + "\r\n")
        t += rng.uniform(0.5, 3.0)
        li += 1
    out.append(kline(t + 0.2, "reboot: Power down"))
    assert all(damaged.values()), damaged
    return "".join(out)


def host_log(rng):
    run = Run(rng, "os", "LENOVO 20XW0055GE", "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz",
              8, "6.5.0-35-generic", "tsc", ["tsc"], slow=0.8)
    cal = [{"type": "calib_summary", "source": "user", "ref": "CLOCK_MONOTONIC_RAW",
            "tsc_hz": 2803201000, "spread_ppm": 4}]
    recs = run.records(PROBES)
    recs = recs[:1] + cal + recs[1:]
    recs[-1]["records"] = len(recs) - 1
    return "".join(rec(r) + "\n" for r in recs)


def kvm_log(rng):
    run = Run(rng, "appliance", "QEMU Standard PC (Q35 + ICH9, 2009)",
              "Intel Core Processor (Icelake)", 2, "6.1.0", "kvm-clock",
              ["kvm-clock", "tsc", "hpet", "acpi_pm"], slow=1.0, repeat=3)
    recs = run.records(PROBES, skips={"noise": "no isolated CPU (add isolcpus=1)"},
                       stub="EDK II", calib=calib(rng, [("acpi_pm", 21), ("pit", 90)]))
    out = [OVMF]
    t = 0.0
    for i, r in enumerate(recs):
        if r["type"] == "run":
            for m in KMSG:
                out.append(kline(t, m.format(k="6.1.0", cmdline=run.head["cmdline"])))
                t += 0.05
        out.append(rec(r) + "\r\n")
    return "".join(out)


def two_boots_log(rng):
    a = Run(rng, "appliance", "QEMU Standard PC (Q35 + ICH9, 2009)", "QEMU Virtual CPU version 2.5+",
            2, "6.1.0", "tsc", ["tsc"], slow=3.0)
    b = Run(rng, "appliance", "QEMU Standard PC (Q35 + ICH9, 2009)", "QEMU Virtual CPU version 2.5+",
            2, "6.1.0-rt", "tsc", ["tsc"], slow=3.1, variant="rt")
    ra = a.records(["clocks", "tsc", "yield"], stub="EDK II", calib=calib(rng, [("acpi_pm", 40)]))
    rb = b.records(["clocks", "tsc", "yield"], stub="EDK II", calib=calib(rng, [("acpi_pm", 35)]),
                   end=False)
    rb = rb[:-3]            # the second boot died during yield
    out = [OVMF] + [rec(r) + "\r\n" for r in ra]
    out.append(kline(30.1, "reboot: Restarting system"))
    out.append(OVMF)
    for r in rb:
        out.append(rec(r) + "\r\n")
    out.append(kline(12.5, "BUG: kernel NULL pointer dereference, address: 0000000000000008"))
    out.append(kline(12.5, "Kernel panic - not syncing: Fatal exception"))
    return "".join(out)


def empty_log(rng):
    out = [OVMF]
    for i, m in enumerate(KMSG):
        out.append(kline(i * 0.1, m.format(k="6.1.0", cmdline="console=ttyS0")))
    out.append(kline(2.0, "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)"))
    return "".join(out)


def main():
    files = {"report-qemu.log": qemu_log, "report-host.log": host_log,
             "report-kvm.log": kvm_log, "report-two-boots.log": two_boots_log,
             "report-empty.log": empty_log}
    for i, (name, fn) in enumerate(sorted(files.items())):
        text = fn(random.Random(1000 + i))
        with open(os.path.join(DATA, name), "wb") as f:
            f.write(text.encode("latin-1"))
        print("wrote", name, file=sys.stderr)


if __name__ == "__main__":
    main()
