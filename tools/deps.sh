#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages timeprobe needs, when they are missing
# (chromium: make test draws tp-report --html's page headless, tests/report/html.t).
# As root it runs apt-get; otherwise it prints the exact command.
#   tools/deps.sh [extra-package...]
set -eu

pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils kmod
gnu-efi musl-tools ovmf qemu-system-x86 linux-source-6.1 mtools dosfstools gdisk
libjansson-dev zlib1g-dev python3 perl gnuplot-nox clang libclang-rt-14-dev xorriso sbsigntool openssl jq lava-common
qemu-utils util-linux strace python3-jsonschema libxml2-utils
chromium $*"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "timeprobe needs these Debian packages:$missing" >&2
	echo "install them with:  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
