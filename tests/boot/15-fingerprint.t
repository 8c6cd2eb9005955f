#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A short q35 boot (clocks and yield): the fingerprint record comes right
after the run record, carries every field (a null one with its reason), and
agrees with what the run record and the stub say; the C library is musl
(no rseq registered); timeprobe.cpu_dma_latency=0 on the command line is
held, the run record says 0 and the fingerprint reads the limit 0; every probe run is
followed by an attribution record, the SMI count a reasoned null under
QEMU. With 4 CPUs: the stub's pre-OS latency scan has a record for each,
its summary compares the TSC with the HPET chunk by chunk, and the
tsc_readiness record judges hidden_gaps from it, naming the HPET.
Timing values are never conditions here."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

FIELDS = ("cpu_vendor cpu_family cpu_model cpu_stepping cpu_model_name microcode "
          "cpuid_hypervisor_bit hypervisor_vendor hv_tsc_khz hv_apic_khz hypervisor_sysfs "
          "invariant_tsc constant_tsc nonstop_tsc tsc_known_freq tsc_reliable clocksource "
          "available_clocksources enters_kernel acpi_hpet_table hpet_clocksource firmware_vendor firmware_revision uefi_revision "
          "efi_platform_bits dmi_sys_vendor dmi_product_name dmi_board_vendor dmi_board_name "
          "dmi_bios_vendor dmi_bios_version kernel_release kernel_variant kernel_hz "
          "kernel_preempt accel stub_tsc_ref stub_tsc_calib stub_tsc_hz cpuidle_driver "
          "cpuidle_governor cpuidle_states cpuidle_deepest cpuidle_deepest_exit_us "
          "cpu_dma_latency_limit_us libc libc_from rseq_registered missing needs_root").split()

img = image_copy("fingerprint", "timeprobe.profile=quick timeprobe.probes=clocks,yield "
                 "timeprobe.cpu_dma_latency=0")
status, secs, text = boot(img, "q35", timeout=900, cpus=4)
ok(status == 0, "QEMU exited by itself with status 0", text[-3000:])
suite = check_suite(text)
run = suite[0] if suite else {}
fp = suite[1] if len(suite) > 1 and suite[1]["type"] == "fingerprint" else None
ok(fp is not None, "the fingerprint record comes right after the run record",
   [r["type"] for r in suite[:3]])
fp = fp or {}
ok(len([r for r in suite if r["type"] == "fingerprint"]) == 1, "one fingerprint per run")
ok(not [k for k in FIELDS if k not in fp], "the fingerprint has every field",
   [k for k in FIELDS if k not in fp])
miss = fp.get("missing") if isinstance(fp.get("missing"), dict) else {}
unexplained = [k for k, v in fp.items() if v is None and k not in miss
               and not (k.startswith("dmi_") and "dmi" in miss)]
ok(not unexplained, "every null field has its reason in missing", unexplained)
ok(all(isinstance(v, str) and v for v in miss.values()), "every reason is text", miss)
ok(fp.get("env") == "appliance" and fp.get("needs_root") == [], "appliance: PID 1 needs no more rights")
ok(fp.get("clocksource") == run.get("clocksource")
   and fp.get("available_clocksources") == run.get("available_clocksources"),
   "clocksource as the run record says", (fp.get("clocksource"), run.get("clocksource")))
ok(fp.get("accel") is not None and fp.get("accel") == run.get("accel"),
   "accel from the launcher, as in the run record", (fp.get("accel"), run.get("accel")))
ok(fp.get("kernel_variant") == run.get("variant") and fp.get("kernel_hz") == run.get("kernel_hz"),
   "kernel variant and HZ from the build's words", (fp.get("kernel_variant"), fp.get("kernel_hz")))
ok("Q35" in str(fp.get("dmi_product_name")), "DMI names the q35 machine", fp.get("dmi_product_name"))
ok(fp.get("acpi_hpet_table") is True and fp.get("hpet_clocksource") is True,
   "q35 offers an HPET and the kernel took it", (fp.get("acpi_hpet_table"), fp.get("hpet_clocksource")))
ok(fp.get("efi_platform_bits") == "64", "started through 64-bit UEFI", fp.get("efi_platform_bits"))
ok(fp.get("cpuid_hypervisor_bit") is True and isinstance(fp.get("hypervisor_vendor"), str),
   "QEMU sets the hypervisor bit and signs leaf 0x40000000", fp.get("hypervisor_vendor"))
ok(str(fp.get("libc")).startswith("musl ") and fp.get("rseq_registered") is False,
   "the appliance's libc is musl, named with its version, and registers no rseq",
   (fp.get("libc"), fp.get("libc_from"), fp.get("rseq_registered")))
ok(run.get("cpu_dma_latency_us") == 0 and fp.get("cpu_dma_latency_limit_us") == 0,
   "timeprobe.cpu_dma_latency=0 arrives: held, the run record says 0, the fingerprint reads 0",
   (run.get("cpu_dma_latency_us"), run.get("cpu_dma_latency_error"), fp.get("cpu_dma_latency_limit_us")))
ek = fp.get("enters_kernel") if isinstance(fp.get("enters_kernel"), dict) else {}
ok(isinstance(ek.get("CLOCK_MONOTONIC"), bool) and ek.get("CLOCK_PROCESS_CPUTIME_ID") is True,
   "enters_kernel: CLOCK_MONOTONIC checked, the CPU-time clocks always enter", ek)
sv = stub_values(records(text)[0])
calib = ",".join("%s:%d:%d" % (r["ref"], r["tsc_hz"], r["spread_ppm"]) for r in records(text)[0]
                 if r["type"] == "calib" and not r.get("absent") and "spread_ppm" in r)
ok(fp.get("stub_tsc_ref") == sv.get("tsc_ref") and sv.get("tsc_ref")
   and calib and fp.get("stub_tsc_calib") == calib and "tsc_calib" not in sv,
   "the stub's reference and every reference's figure and spread as its calib records carried them",
   (fp.get("stub_tsc_ref"), fp.get("stub_tsc_calib"), calib))
stub = first(records(text)[0], "stub")
ok(fp.get("firmware_vendor") == stub.get("firmware_vendor") and stub.get("firmware_vendor")
   and fp.get("firmware_revision") == stub.get("firmware_revision")
   and fp.get("uefi_revision") == stub.get("uefi_revision"),
   "firmware vendor and revisions: the stub's, across its file",
   (fp.get("firmware_vendor"), fp.get("firmware_revision"), fp.get("uefi_revision"), stub))

att = [r for r in suite if r["type"] == "attribution"]
# one after each probe, or after each round of a probe in rounds (clocks and yield
# split), carrying it; round k of every probe before round k + 1 of any (a whole
# probe runs in round 1)
seq = [(r.get("for_probe"), r.get("round")) for r in att]
order = list(dict.fromkeys(p for p, _ in seq))
each = {p: [k for q, k in seq if q == p] for p in order}
ok(order == ["clocks", "yield"]
   and all(ks == [None] or ks == list(range(1, len(ks) + 1)) for ks in each.values())
   and seq == sorted(seq, key=lambda t: (t[1] or 1, order.index(t[0]))),
   "one attribution record per probe run (per round of a split probe), rounds interleaved", seq)
ok(all(isinstance(r.get("machine_context_switches"), int) for r in att), "the machine's context switches counted")
ok(all(isinstance(r.get("own_vol_ctxsw"), int) and isinstance(r.get("own_invol_ctxsw"), int)
       and r["own_vol_ctxsw"] + r["own_invol_ctxsw"] <= r["machine_context_switches"] for r in att),
   "the probe's own switches counted, no more than the machine's", att)
ok(all(any(k.startswith("irq:") for k in r) for r in att), "interrupts counted per source",
   [sorted(r) for r in att])
ok(all(r.get("smis") is None and r.get("missing", {}).get("smis") for r in att),
   "SMIs: null with a reason under QEMU", [r.get("missing") for r in att])
for r in att:
    diag("attribution %s: %s" % (r.get("for_probe"), {k: v for k, v in r.items() if k not in ("type",)}))
lines = [l for l in text.splitlines() if l.startswith("  clocks: machine: ") and "; probe: " in l]
ok(lines, "the human line beside the probe", text[-1500:])
import probes  # noqa: E402
ok(len(probes.check_preos_hwlat(text, 4)) == 4, "the pre-OS scan on all 4 CPUs")
import tp1  # noqa: E402
summ = [r for r in tp1.records(text)[0] if r["type"] == "stub_hwlat" and r.get("what") == "summary"]
probes.check_hidden_readiness(suite, summ[0] if summ else {})
done()
