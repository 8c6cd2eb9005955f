#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproducible builds: two copies of this tree at different paths build
# everything but the kernel (the same bzImage is handed to both) and must
# give the same bytes: the stripped /init, the initramfs, the stub, the disk
# image and the single file (the images with one TIMEPROBE_IMAGE_ID: without
# it each image gets an identity of its own, tools/image-ids.sh). With REPRO_KERNEL=1 (make test-all) the kernel
# is built twice too, in two fresh caches, and the bzImages compared.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

git rev-parse --git-dir >/dev/null 2>&1 || { echo "1..0 # SKIP not a git checkout (the copies list its files)"; exit 0; }
kernel=$(pwd)/build/kernel/bzImage
[ -f "$kernel" ] || { echo "1..0 # SKIP no build/kernel/bzImage (make image first)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-repro.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
outputs="build/timeprobe.stripped build/initramfs.img build/boot/BOOTX64.EFI build/timeprobe.img build/timeprobe.efi"

# The tracked and new files of the working tree, as a fresh clone would have them.
copy_tree() {
	mkdir -p "$1"
	git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$1"
}

for d in a b/longer/path; do
	copy_tree "$tmp/$d"
	ok "build in $d" env TIMEPROBE_IMAGE_ID=repro make -C "$tmp/$d" -j2 KERNEL_IMAGE="$kernel" $outputs
done
for f in $outputs; do
	ok "$f: the same bytes" cmp "$tmp/a/$f" "$tmp/b/longer/path/$f"
done
ok "a second make rebuilds nothing" sh -c "make -C '$tmp/a' -q KERNEL_IMAGE='$kernel' build/initramfs.img build/timeprobe.stripped"
ok "the stripped /init carries no build path" sh -c "! grep -q '$tmp' '$tmp/a/build/timeprobe.stripped'"
ok "nor does the debug binary" sh -c "! grep -q '$tmp' '$tmp/a/build/timeprobe'"

if [ "${REPRO_KERNEL:-0}" = 1 ]; then
	for d in a b/longer/path; do
		ok "kernel build in $d" env TIMEPROBE_CACHE="$tmp/cache-$(echo "$d" | tr / _)" \
			sh "$tmp/$d/kernel/build.sh" "$tmp/$d/bzImage"
	done
	ok "bzImage: the same bytes" cmp "$tmp/a/bzImage" "$tmp/b/longer/path/bzImage"
fi
done_testing
