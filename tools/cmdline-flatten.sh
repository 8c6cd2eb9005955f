#!/bin/sh
# SPDX-License-Identifier: MIT
# The one way the build turns a cmdline.txt and extra words into the single
# line an image carries (the disk image, the ISO, the single EFI file's
# .cmdline): comment lines (first non-blank character '#', as the stub reads
# them, docs/stub.md) dropped, CR and tabs and line ends turned into blanks,
# runs of blanks collapsed, both ends trimmed, the words appended.
#
#   tools/cmdline-flatten.sh [--drop NAME] CMDLINE.txt [WORDS...]
#
# --drop NAME removes every NAME=... (or bare NAME) word: the single file
# leaves out initrd=, its initramfs travels in .initrd. Fails, saying why,
# when nothing is left: an image must not carry an empty line.
# With TIMEPROBE_CHECK naming a timeprobe that runs here (the Makefile sets
# it), the line's words are checked as the appliance will read them
# (`timeprobe check-words`): a refused word fails here, before any image is
# made or booted, with the suite's own message.
set -eu
drop=
if [ "${1:-}" = --drop ]; then
	drop=$2
	shift 2
fi
[ $# -ge 1 ] && [ -f "$1" ] || { echo "cmdline-flatten: usage: [--drop NAME] CMDLINE.txt [WORDS...]" >&2; exit 2; }
file=$1
shift
line=$( { sed -e '/^[[:space:]]*#/d' "$file"; printf ' %s' "$@"; } | tr '\r\n\t' '   ' |
	sed 's/  */ /g; s/^ //; s/ $//')
if [ -n "$drop" ]; then
	line=$(printf '%s\n' "$line" | tr ' ' '\n' | grep -v -e "^$drop\$" -e "^$drop=" | tr '\n' ' ' |
		sed 's/ $//')
fi
[ -n "$line" ] || { echo "cmdline-flatten: $file and the extra words give an empty line" >&2; exit 1; }
if [ -n "${TIMEPROBE_CHECK:-}" ]; then
	"$TIMEPROBE_CHECK" check-words "$line" ||
		{ echo "cmdline-flatten: $file with APPEND: the words above would be refused by the appliance" >&2; exit 1; }
fi
printf '%s\n' "$line"
