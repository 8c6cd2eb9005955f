#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the version `timeprobe --version` and `tp-report --version` carry:
# `git describe --tags --always --dirty` in a git checkout of this tree, else
# (a source tarball, the .deb's build copy) debian/changelog's version.
#
#   tools/version.sh > build/version.h.tmp   (a C header: #define TP_VERSION "...")
set -eu
cd "$(dirname "$0")/.."
v=
# Only this tree's own checkout: a copy inside another work tree (make deb's,
# under build/) would describe the outer one.
if top=$(git rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$(pwd -P)" ]; then
	v=$(git describe --tags --always --dirty 2>/dev/null) || v=
fi
[ -n "$v" ] || v=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog)
case $v in
'' | *[!A-Za-z0-9.+~_-]*) echo "version.sh: no usable version ('$v')" >&2; exit 1 ;;
esac
printf '/* written by tools/version.sh */\n#define TP_VERSION "%s"\n' "$v"
