#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make ARCH=arm64 sign-image under Secure Boot: Debian's AAVMF "snakeoil"
firmware (AAVMF_CODE.snakeoil.fd, whose variables enroll the snakeoil
certificate in db) boots the arm64 image signed with the snakeoil key, the
stub starts the signed kernel (Linux says Secure Boot is enabled) and the
suite saves its results; the unsigned image is refused by the firmware
(Access Denied). The key's passphrase is "snakeoil" (Debian's
qemu-efi-aarch64 README). Works on copies of build/arm64's stub, kernel and
initramfs in build/tests/boot-67-arm64-secureboot/arm64-sb; two short TCG boots."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from tp1 import *  # noqa
from tpimage import *  # noqa

FW = "/usr/share/AAVMF"
SNAKEOIL = "/usr/share/qemu-efi-aarch64/PkKek-1-snakeoil"
A = ARCHS["arm64"]
for f in (FW + "/AAVMF_CODE.snakeoil.fd", FW + "/AAVMF_VARS.snakeoil.fd", SNAKEOIL + ".key"):
    if not os.path.exists(f):
        print("1..0 # SKIP %s missing (apt-get install qemu-efi-aarch64)" % f)
        sys.exit(0)
if not shutil.which("sbsign"):
    print("1..0 # SKIP sbsign missing (apt-get install sbsigntool)")
    sys.exit(0)

b = test_dir("arm64-sb")
shutil.rmtree(b, ignore_errors=True)
for d in ("boot", "kernel"):
    os.makedirs(os.path.join(b, d))
for rel in ("boot/" + A["stub"], "kernel/bzImage", "kernel/bzImage.config", "initramfs.img"):
    src = os.path.join(A["build"], rel)
    if not os.path.exists(src):
        bail("no %s: run `%s image` first" % (src, A["make"]))
    shutil.copyfile(src, os.path.join(b, rel))
key = os.path.join(b, "db.key")
subprocess.run(["openssl", "pkey", "-in", SNAKEOIL + ".key", "-passin", "pass:snakeoil", "-out", key],
               check=True)
# -o: the copied inputs as they are (no stub, kernel or initramfs rebuild);
# paths relative to the tree, as make's targets cannot hold a blank
rb, rkey = os.path.relpath(b, ROOT), os.path.relpath(key, ROOT)
r = subprocess.run(["make", "--no-print-directory", "-s", "ARCH=arm64", "B=" + rb,
                    "-o", os.path.join(rb, "boot", A["stub"]), "-o", os.path.join(rb, "kernel/bzImage"),
                    "-o", os.path.join(rb, "initramfs.img"), "sign-image", "KEY=" + rkey,
                    "CERT=" + SNAKEOIL + ".pem",
                    "APPEND=timeprobe.profile=quick timeprobe.probes=clocks"],
                   cwd=ROOT, capture_output=True, text=True,
                   env={k: v for k, v in os.environ.items() if not k.startswith("MAKE")})
ok(r.returncode == 0, "make ARCH=arm64 sign-image with the snakeoil key", (r.stdout + r.stderr)[-1500:])

env = dict(os.environ, ARCH="arm64", OVMF_CODE=FW + "/AAVMF_CODE.snakeoil.fd",
           OVMF_VARS=FW + "/AAVMF_VARS.snakeoil.fd")
signed = os.path.join(b, "timeprobe.signed.img")
status, secs, text = boot(signed, "virt", timeout=900, env=env)
ok(status == 0, "signed: QEMU exited by itself with status 0", text[-3000:])
ok("EFI stub: UEFI Secure Boot is enabled." in text and "Secure boot enabled" in text,
   "signed: the firmware started the signed stub and kernel with Secure Boot on",
   "\n".join(l for l in text.splitlines() if "ecure" in l or "BdsDxe" in l))
suite = check_suite(text, "signed: ")
end = suite[-1] if suite else {}
ok(end.get("probes_ok") == 1 and end.get("probes_failed") == 0, "signed: clocks ran and did not fail", end)
ok(len(esp_list(signed)) == 1, "signed: the results were saved on its ESP")

unsigned = image_copy("arm64-sb-unsigned", source=IMAGE_ARM64)
status, secs, text = boot(unsigned, "virt", timeout=600, env=env, until="Access Denied")
ok("failed to load Boot0001" in text and "Access Denied" in text and "timeprobe: stub" not in text,
   "unsigned: the firmware refuses the unsigned stub (Access Denied) and it never runs",
   "\n".join(l for l in text.splitlines() if "BdsDxe" in l) or text[-1500:])
done()
