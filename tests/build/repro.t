#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproducible builds: two copies of this tree at different paths (the
# second with a blank in it, where make and every script must work) build
# everything but the kernel (the same bzImage is handed to both) and must
# give the same bytes: the stripped /init, the initramfs, the stub, the disk
# image and the single file (the images with one TIMEPROBE_IMAGE_ID: without
# it each image gets an identity of its own, tools/image-ids.sh). With
# REPRO_KERNEL=1 (make test-all) the kernel is built twice too, in two fresh caches, and the bzImages compared.
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

# The second path is longer and has a blank in it: every output builds there too.
a=$tmp/a
b="$tmp/b/longer path"
for d in "$a" "$b"; do
	copy_tree "$d"
	ok "build in ${d#"$tmp"/}" env TIMEPROBE_IMAGE_ID=repro make -C "$d" -j2 KERNEL_IMAGE="$kernel" $outputs
done
for f in $outputs; do
	ok "$f: the same bytes" cmp "$a/$f" "$b/$f"
done
ok "a second make rebuilds nothing" make -C "$a" -q KERNEL_IMAGE="$kernel" build/initramfs.img build/timeprobe.stripped
# shellcheck disable=SC2016 # $1 and $2 are sh -c's own
for d in "$a" "$b"; do
	ok "the stripped /init carries no build path (${d#"$tmp"/})" sh -c '! grep -qF "$1" "$2"' - "$d" "$d/build/timeprobe.stripped"
	ok "nor does the debug binary (${d#"$tmp"/})" sh -c '! grep -qF "$1" "$2"' - "$d" "$d/build/timeprobe"
done

if [ "${REPRO_KERNEL:-0}" = 1 ]; then
	for d in "$a" "$b"; do
		ok "kernel build in ${d#"$tmp"/}" env TIMEPROBE_CACHE="$d.cache" sh "$d/kernel/build.sh" "$d/bzImage"
	done
	ok "bzImage: the same bytes" cmp "$a/bzImage" "$b/bzImage"
fi
done_testing
