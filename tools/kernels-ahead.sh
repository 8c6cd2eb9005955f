#!/bin/sh
# SPDX-License-Identifier: MIT
# Starts both appliances' kernels (x86 and arm64, of VARIANT, none by
# default) building into the kernel cache in the background, and returns at
# once. make test runs it once the kernel's own packages are there
# (tools/deps.sh --kernel) and before apt fetches the rest, so on a fresh
# machine the kernels compile while apt downloads and unpacks. Each build
# holds its key's lock (kernel/build.sh), so make's own kernel/build.sh
# waits on it and then takes the cached kernel; a build that failed here
# runs again there, its error on the console. A kernel already cached takes
# a second.
#
#   tools/kernels-ahead.sh DIR [VARIANT]
#
# DIR gets each build's log (kernel-x86.log, kernel-arm64.log), its process
# id (kernel-ARCH.pid, its own process group: setsid) and its copy of the
# kernel (bzImage-ARCH).
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: tools/kernels-ahead.sh DIR [VARIANT]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
for arch in x86 arm64; do
	ARCH=$arch nohup setsid sh "$here/kernel/build.sh" "$1/bzImage-$arch" ${2:+"$2"} \
		>"$1/kernel-$arch.log" 2>&1 </dev/null &
	echo $! >"$1/kernel-$arch.pid"
done
echo "kernels: x86 and arm64 building in the background while the rest is installed (logs: $1/kernel-*.log)"
