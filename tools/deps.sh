#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages timeprobe needs, when they are missing
# (chromium: make test draws tp-report --html's page headless, tests/report/html.t;
# prometheus, with promtool: make test backfills and queries OpenMetrics, tests/report/prometheus.t;
# prometheus-node-exporter: tests/host/install.t serves the installed textfile folder and scrapes it;
# nginx, prometheus-pushgateway: the lab's servers on 127.0.0.1 for timeprobe.upload=/push= (tests/host/upload.t);
# debhelper, lintian, bash-completion: make deb, and the tests of the package and the
# completion, tests/host/install.t and tests/boot/97-deb.t).
# As root it runs apt-get; otherwise it prints the exact command.
#   tools/deps.sh [--kernel] [extra-package...]
# The arm64 appliance (make ARCH=arm64; make test boots it) needs the cross
# tools and, from the arm64 architecture (dpkg --add-architecture arm64),
# musl-dev:arm64 (Multi-Arch: same, beside the amd64 one; it brings
# aarch64-linux-musl-gcc). gnu-efi:arm64 cannot be installed beside gnu-efi
# (not Multi-Arch): tools/gnu-efi-arm64.sh unpacks it into the build.
set -eu

# What kernel/build.sh needs for both appliances' kernels (--kernel): make
# test installs these first and starts the kernels (tools/kernels-ahead.sh)
# before apt fetches the rest.
kernel_pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils kmod
linux-source-6.1 gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu"
rest="gnu-efi musl-tools ovmf qemu-system-x86 mtools dosfstools gdisk
libjansson-dev zlib1g-dev python3 perl gnuplot-nox clang libclang-rt-14-dev xorriso sbsigntool openssl jq lava-common
qemu-utils util-linux strace python3-jsonschema libxml2-utils chromium prometheus prometheus-node-exporter
linux-libc-dev-arm64-cross
qemu-system-arm qemu-efi-aarch64 musl-dev:arm64 debhelper lintian bash-completion nginx
prometheus-pushgateway"
if [ "${1:-}" = --kernel ]; then
	shift
	rest=
fi
pkgs="$kernel_pkgs $rest $*"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "timeprobe needs these Debian packages:$missing" >&2
	echo "install them with:  sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
