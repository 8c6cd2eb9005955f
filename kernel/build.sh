#!/bin/sh
# SPDX-License-Identifier: MIT
# Build (or fetch from the cache) the timeprobe kernel.
#
#   kernel/build.sh OUT_BZIMAGE [VARIANT]
#   kernel/build.sh --config-only OUT_CONFIG [VARIANT]
#
# --config-only runs only the configuration step (tinyconfig, merge of the
# fragments, olddefconfig and the check that every requested option
# survived), writes the resulting .config to OUT_CONFIG and compiles
# nothing: seconds instead of minutes, to check a fragment.
#
# Environment:
#   KERNEL_SRC    a kernel source tree to build instead of Debian's tarball
#   KERNEL_TARBALL  the tarball (default /usr/src/linux-source-6.1.tar.xz)
#   TIMEPROBE_CACHE cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/timeprobe)
#   SOURCE_DATE_EPOCH the build time the kernel states (the Makefile sets it)
#   ARCH          x86 (default) or arm64: the base fragment (timeprobe.config
#                 or arm64.config), the cross compiler and the image built
#                 (bzImage, or arm64's Image with its EFI stub); OUT gets it
#
# The result is cached under a key made of the fragment(s), this script, the
# source's identity, SOURCE_DATE_EPOCH and the compiler's version, so an unchanged kernel is
# never rebuilt. Each build's .config is kept beside its bzImage.
set -eu

config_only=
if [ "${1:-}" = --config-only ]; then
	config_only=1
	shift
fi
[ $# -ge 1 ] || { echo "usage: kernel/build.sh [--config-only] OUT [VARIANT]" >&2; exit 2; }
out=$1
variant=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cache=${TIMEPROBE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/timeprobe}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=$(nproc 2>/dev/null || echo 2)
# The kernel's makes run their own -j: not the calling make's jobserver
# (make test's -j) nor its command line's variables (ARCH=, B=...).
unset MAKEFLAGS MFLAGS MAKELEVEL

# The architecture: base fragment, kernel ARCH, cross compiler, image target.
case ${ARCH:-x86} in
x86|x86_64|amd64)
	base=timeprobe.config karch=x86 cross= target=bzImage ;;
arm64|aarch64)
	base=arm64.config karch=arm64 cross=aarch64-linux-gnu- target=Image ;;
*)
	echo "kernel/build.sh: ARCH='${ARCH:-}' is neither x86 nor arm64" >&2; exit 2 ;;
esac
export ARCH=$karch CROSS_COMPILE=$cross
command -v "${cross}gcc" >/dev/null || { echo "kernel/build.sh: no ${cross}gcc (tools/deps.sh installs it)" >&2; exit 2; }

# The fragments, named relative to $here (which may hold spaces; these names
# do not): read with `cd "$here"`.
frags=$base
if [ -n "$variant" ]; then
	vf="$here/variants/$variant.config"
	case $variant in
	*[!A-Za-z0-9_.-]*) vf= ;;
	esac
	if [ ! -f "$vf" ]; then
		echo "kernel/build.sh: unknown variant '$variant' (no $vf); known:" \
			"$(cd "$here/variants" && ls *.config | sed 's/\.config$//' | tr '\n' ' ')" >&2
		exit 2
	fi
	frags="$frags variants/$variant.config"
fi

# Identity of the source: the tarball's hash, or the tree's path and git HEAD
# or newest mtime for KERNEL_SRC.
if [ -n "${KERNEL_SRC:-}" ]; then
	[ -f "$KERNEL_SRC/Makefile" ] || { echo "kernel/build.sh: KERNEL_SRC=$KERNEL_SRC has no Makefile" >&2; exit 2; }
	srcid="tree:$(cd "$KERNEL_SRC" && pwd):$(git -C "$KERNEL_SRC" rev-parse HEAD 2>/dev/null || find "$KERNEL_SRC" -name '*.[ch]' -newer "$KERNEL_SRC/Makefile" | wc -l)"
else
	[ -f "$tarball" ] || { echo "kernel/build.sh: no kernel source: $tarball is missing (apt-get install linux-source-6.1)" >&2; exit 2; }
	srcid="tar:$(sha256sum "$tarball" | cut -d' ' -f1)"
fi
# The version string (uname -v, /proc/version) would carry the build's time,
# user and host: take them from SOURCE_DATE_EPOCH and fixed words, so the same
# inputs give the same bzImage (Documentation/kbuild/reproducible-builds.rst).
sde=${SOURCE_DATE_EPOCH:-1700000000}
export KBUILD_BUILD_TIMESTAMP="$(date -u -d "@$sde" '+%a %b %e %H:%M:%S UTC %Y')"
export KBUILD_BUILD_USER=timeprobe KBUILD_BUILD_HOST=timeprobe KBUILD_BUILD_VERSION=1
key=$( { echo "$srcid"; echo "sde:$sde"; (cd "$here" && cat $frags); cat "$0"; "${cross}gcc" --version | head -n1; } | sha256sum | cut -c1-16)
dir="$cache/kernel-${cross:+$karch-}${variant:-base}-$key"

# One build of a key at a time: two makes sharing an object folder (two test
# runs, or make efi beside make image) would delete each other's files.
mkdir -p "$cache"
exec 9>"$dir.lock"
flock 9

# What the extraction leaves out: no x86 or arm64 tinyconfig-based kernel
# (base or variant) builds it. tools/perf and tools/testing whole (no
# Kconfig sources them); the C, assembly and device trees of the other
# architectures and of the large drivers never configured (DRM's GPUs,
# media, sound, staging, wireless), and the prose of Documentation: their
# Kconfig, Kbuild and Makefiles stay (Kconfig reads every file it sources,
# crypto/Kconfig each architecture's). About 700 MB of the 1.3 GB.
tar_excludes() {
	printf -- '--anchored\n--no-wildcards-match-slash\n'
	printf -- '--exclude=*/tools/perf\n--exclude=*/tools/testing\n--wildcards-match-slash\n'
	for d in alpha arc arm csky hexagon ia64 loongarch m68k microblaze mips nios2 openrisc \
		parisc powerpc riscv s390 sh sparc um xtensa; do
		printf -- '--exclude=*/arch/%s/*.%s\n' "$d" '[chS]' "$d" dts "$d" dtsi
	done
	for d in drivers/gpu/drm/amd drivers/gpu/drm/i915 drivers/gpu/drm/nouveau drivers/gpu/drm/radeon \
		drivers/media sound drivers/staging drivers/net/wireless; do
		printf -- '--exclude=*/%s/*.[ch]\n' "$d"
	done
	for e in rst txt yaml svg; do
		printf -- '--exclude=*/Documentation/*.%s\n' "$e"
	done
}

# The source tree to build: KERNEL_SRC, or the tarball extracted once.
source_tree() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		src=$(cd "$KERNEL_SRC" && pwd)
	else
		src="$cache/src-$(echo "$srcid" | cut -c5-20)"
		# one extraction at a time: the x86 and arm64 builds share the tree
		exec 8>"$src.lock"
		flock 8
		if [ ! -f "$src/.extracted" ]; then
			echo "kernel: extracting $tarball"
			rm -rf "$src" && mkdir -p "$src"
			set -f # the patterns reach tar as they are
			# shellcheck disable=SC2046 # one option a line, none with a blank
			tar -xf "$tarball" -C "$src" --strip-components=1 $(tar_excludes)
			set +f
			touch "$src/.extracted"
		fi
		flock -u 8
	fi
}

# tinyconfig, our fragments on top, olddefconfig, in the object folder $1;
# fails when an option we asked for did not survive.
configure() {
	make -s -C "$src" O="$1" tinyconfig >/dev/null
	(cd "$here" && "$src/scripts/kconfig/merge_config.sh" -m -O "$1" "$1/.config" $frags >/dev/null)
	make -s -C "$src" O="$1" olddefconfig >/dev/null
	# Every option we asked for must be in the final .config as asked.
	for f in $frags; do
		grep -E '^CONFIG_[A-Z0-9_]+=' "$here/$f" | while IFS= read -r line; do
			opt=${line%%=*}
			want=${line#*=}
			if [ "$want" = n ]; then
				grep -qx "# $opt is not set" "$1/.config" || grep -qx "$opt=n" "$1/.config" || echo "$line"
			else
				grep -qx "$line" "$1/.config" || echo "$line"
			fi
		done
	done > "$1/dropped"
	if [ -s "$1/dropped" ]; then
		echo "kernel/build.sh: these options did not survive olddefconfig (a missing dependency?):" >&2
		sed 's/^/  /' "$1/dropped" >&2
		exit 1
	fi
}

if [ -n "$config_only" ]; then
	source_tree
	mkdir -p "$cache"
	obj=$(mktemp -d "$dir.cfg.XXXXXX")
	trap 'rm -rf "$obj"' EXIT
	echo "kernel: configuring in $obj (fragments: $frags)"
	configure "$obj"
	mkdir -p "$(dirname "$out")"
	cp "$obj/.config" "$out"
	echo "kernel: config ok, $out"
	exit 0
fi

if [ -f "$dir/bzImage" ]; then
	echo "kernel: cached $dir"
else
	source_tree
	obj="$dir.obj"
	rm -rf "$obj" && mkdir -p "$obj"
	echo "kernel: building in $obj (fragments: $frags)"
	configure "$obj"
	make -s -C "$src" O="$obj" -j"$jobs" $target
	mkdir -p "$dir.tmp"
	cp "$obj/arch/$karch/boot/$target" "$dir.tmp/bzImage"
	cp "$obj/.config" "$dir.tmp/config"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	rm -rf "$obj"
fi
mkdir -p "$(dirname "$out")"
cp "$dir/bzImage" "$out"
cp "$dir/config" "$out.config"
