#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Host test of the fingerprint record (userland/fingerprint.c): kernel_hz and
# kernel_preempt from /proc/config.gz where the kernel offers it; HZ derived
# from CLOCK_REALTIME_COARSE's resolution, and said so, when no configuration
# is readable (gzip taken off PATH); the ALARM clocks the kernel refuses are
# null in enters_kernel with the reason in missing; the kernel's TSC figure
# with its line and derivation, or why not; the C library by name (musl, from
# the build) and its rseq registration (musl registers none); the idle
# driver, governor and deepest state as sysfs says them (TAP).
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import BIN, done, ok, run_probe, skip  # noqa: E402

if not os.access(BIN, os.X_OK):
    print("1..0 # SKIP %s not built" % BIN)
    sys.exit(0)


def fingerprint(**env):
    old = dict(os.environ)
    os.environ.update(env)
    try:
        run = run_probe("vdso-check", timeout=60)
    finally:
        os.environ.clear()
        os.environ.update(old)
    fps = [r for r in run.recs if r["type"] == "fingerprint"]
    ok(len(fps) == 1 and not run.bad, "one fingerprint record, CRCs valid%s" % (" (PATH=%s)" % env["PATH"] if env else ""),
       run.p.stdout[-1500:])
    return fps[0] if fps else {}


fp = fingerprint()
CONFIGS = ("kconfig word", "/proc/config.gz", "/boot/config-RELEASE")
if os.access("/proc/config.gz", os.R_OK) and shutil.which("gzip"):
    ok(fp.get("kernel_config_from") == "/proc/config.gz" and fp.get("kernel_hz_source") == "/proc/config.gz",
       "/proc/config.gz is read", {k: fp.get(k) for k in ("kernel_config_from", "kernel_hz_source")})
    ok(isinstance(fp.get("kernel_hz"), int) and fp["kernel_hz"] > 0, "kernel_hz filled", fp.get("kernel_hz"))
    ok(fp.get("kernel_preempt") in ("none", "voluntary", "full", "dynamic", "rt"), "kernel_preempt filled",
       fp.get("kernel_preempt"))
else:
    skip("/proc/config.gz is read", "no /proc/config.gz or no gzip on this host")
    skip("kernel_hz filled", "no /proc/config.gz")
    skip("kernel_preempt filled", "no /proc/config.gz")

res = time.clock_getres(5)  # CLOCK_REALTIME_COARSE: one tick
uname = os.uname().release
if os.path.exists("/boot/config-" + uname):
    skip("no configuration readable: HZ derived", "/boot/config-%s exists" % uname)
else:
    bare = fingerprint(PATH="/nonexistent")
    ok(bare.get("kernel_hz_source") == "derived from CLOCK_REALTIME_COARSE resolution"
       and bare.get("kernel_hz") == round(1 / res),
       "no configuration readable: HZ %d derived from CLOCK_REALTIME_COARSE resolution, and said so" % round(1 / res),
       {k: bare.get(k) for k in ("kernel_hz", "kernel_hz_source", "kernel_config_from")})
    ok(bare.get("kernel_preempt") is None and "kernel_preempt" in bare.get("missing", {}),
       "and kernel_preempt null with the reason", bare.get("missing", {}).get("kernel_preempt"))
    if fp.get("kernel_hz_source") in CONFIGS:
        ok(bare.get("kernel_hz") == fp["kernel_hz"], "the derived HZ is the configured one",
           (bare.get("kernel_hz"), fp["kernel_hz"]))

for cid, name in ((8, "CLOCK_REALTIME_ALARM"), (9, "CLOCK_BOOTTIME_ALARM")):
    try:
        time.clock_gettime(cid)
        refused = None
    except OSError as e:
        refused = e.strerror
    got = fp.get("enters_kernel", {}).get(name, "absent")
    why = fp.get("missing", {}).get("enters_kernel." + name, "")
    if refused:
        ok(got is None and refused in why, "%s refused (%s): null, with the reason" % (name, refused), (got, why))
    else:
        ok(got in (True, False), "%s read: enters_kernel says true or false" % name, got)

if fp.get("kernel_tsc_khz") is not None:
    ok(fp["kernel_tsc_khz"] > 0 and fp["kernel_tsc_line"].startswith("tsc: ") and fp["kernel_tsc_from"],
       "the kernel's TSC figure %d kHz, from \"%s\" (%s)" % (fp["kernel_tsc_khz"], fp["kernel_tsc_line"],
                                                           fp["kernel_tsc_from"]), fp)
else:
    ok(fp.get("missing", {}).get("kernel_tsc_khz"), "no kernel TSC figure: missing says why", fp.get("missing"))

ok(str(fp.get("libc")).startswith("musl") and fp.get("libc_from"),
   "libc named: %s (%s)" % (fp.get("libc"), fp.get("libc_from")))
ok(fp.get("rseq_registered") is False and fp.get("rseq_how"),
   "musl registers no rseq: false, and how that was found",
   (fp.get("rseq_registered"), fp.get("rseq_how")))


def sysfs(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


CPUIDLE = "/sys/devices/system/cpu/cpuidle/"
driver = sysfs(CPUIDLE + "current_driver")
ok(fp.get("cpuidle_driver") == driver if driver else
   fp.get("cpuidle_driver") is None and fp.get("missing", {}).get("cpuidle_driver"),
   "cpuidle_driver as sysfs says: %s" % fp.get("cpuidle_driver"))
gov = sysfs(CPUIDLE + "current_governor_ro") or sysfs(CPUIDLE + "current_governor")
ok(fp.get("cpuidle_governor") == gov if gov else fp.get("missing", {}).get("cpuidle_governor"),
   "cpuidle_governor as sysfs says: %s" % fp.get("cpuidle_governor"))
states = 0
while sysfs("/sys/devices/system/cpu/cpu0/cpuidle/state%d/name" % states) is not None:
    states += 1
ok(fp.get("cpuidle_states") == states and (fp.get("cpuidle_deepest") is not None
                                          or fp.get("missing", {}).get("cpuidle_deepest")),
   "CPU 0's %d idle states; the deepest enabled: %s, exit %s us, or why none"
   % (states, fp.get("cpuidle_deepest"), fp.get("cpuidle_deepest_exit_us")))
done()
