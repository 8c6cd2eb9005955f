#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's usr/gen_init_cpio.c (it writes the initramfs, no root needed)
# out of the kernel tarball kernel/build.sh builds from. Reading one file out
# of a tar.xz decompresses it up to that file (~20 s): done once, and kept in
# the kernel cache under the tarball's hash; taken from kernel/build.sh's
# extracted tree when it has one.
#
#   tools/gen-init-cpio.sh OUT.c
#
# Environment (as kernel/build.sh): KERNEL_TARBALL, TIMEPROBE_CACHE.
set -eu

[ $# -eq 1 ] || { echo "usage: tools/gen-init-cpio.sh OUT.c" >&2; exit 2; }
out=$1
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${TIMEPROBE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/timeprobe}
[ -f "$tarball" ] || { echo "gen-init-cpio: no kernel source: $tarball is missing (apt-get install linux-source-6.1)" >&2; exit 2; }

# kernel/build.sh names its tree src-HASH, HASH the first 16 hex digits of the tarball's sha256
hash=$(sha256sum "$tarball" | cut -c1-16)
cached=$cache/gen_init_cpio-$hash.c
tree=$cache/src-$hash
if [ ! -s "$cached" ]; then
	mkdir -p "$cache"
	if [ -f "$tree/.extracted" ] && [ -f "$tree/usr/gen_init_cpio.c" ]; then
		cp "$tree/usr/gen_init_cpio.c" "$cached.$$"
	else
		echo "gen-init-cpio: reading usr/gen_init_cpio.c out of $tarball (once, ~20 s; then cached)"
		tar -xOf "$tarball" --wildcards --occurrence=1 '*/usr/gen_init_cpio.c' >"$cached.$$"
	fi
	[ -s "$cached.$$" ] || { rm -f "$cached.$$"; echo "gen-init-cpio: no usr/gen_init_cpio.c in $tarball" >&2; exit 1; }
	mv "$cached.$$" "$cached"
fi
cp "$cached" "$out"
