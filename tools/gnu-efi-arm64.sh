#!/bin/sh
# SPDX-License-Identifier: MIT
# Unpacks Debian's gnu-efi for arm64 (crt0-efi-aarch64.o, elf_aarch64_efi.lds,
# libefi.a, libgnuefi.a, headers) into a folder of the build, for BOOTAA64.EFI.
#
#   tools/gnu-efi-arm64.sh DEST
#
# gnu-efi:arm64 cannot be installed beside gnu-efi:amd64 (it is not
# Multi-Arch: same; both own /usr/lib/libefi.a), so its package is fetched
# with `apt-get download` (no root needed, once tools/deps.sh has added the
# arm64 architecture) into the cache and unpacked with `dpkg -x`. The cache
# keeps the .deb, so later builds need no network.
set -eu
[ $# -eq 1 ] || { echo "usage: tools/gnu-efi-arm64.sh DEST" >&2; exit 2; }
dest=$1
cache=${TIMEPROBE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/timeprobe}/debs
mkdir -p "$cache"
deb=$(ls "$cache"/gnu-efi_*_arm64.deb 2>/dev/null | tail -n1 || true)
if [ -z "$deb" ]; then
	echo "gnu-efi-arm64: fetching gnu-efi:arm64 into $cache"
	(cd "$cache" && apt-get download gnu-efi:arm64) || {
		echo "gnu-efi-arm64: apt-get download gnu-efi:arm64 failed (run tools/deps.sh: it adds the arm64 architecture)" >&2
		exit 1
	}
	deb=$(ls "$cache"/gnu-efi_*_arm64.deb | tail -n1)
fi
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
dpkg -x "$deb" "$dest.tmp"
for f in usr/lib/crt0-efi-aarch64.o usr/lib/elf_aarch64_efi.lds usr/lib/libefi.a \
	usr/lib/libgnuefi.a usr/include/efi/aarch64/efibind.h; do
	[ -f "$dest.tmp/$f" ] || { echo "gnu-efi-arm64: $deb has no $f" >&2; exit 1; }
done
rm -rf "$dest"
mv "$dest.tmp" "$dest"
