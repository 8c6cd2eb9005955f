#!/bin/sh
# SPDX-License-Identifier: MIT
# The boundary between the stages (docs/ARCHITECTURE.md): what the stub and
# the suite both compile is in common/, so
#  - no file under userland/, tools/ or common/ includes a boot/ header,
#    by a path or by a bare name that only boot/ has (found through -Iboot);
#  - common/ includes only its own headers and freestanding ones (no libc);
#  - no Makefile or *.mk but boot/boot.mk adds -Iboot, names a boot/*.c or
#    uses boot.mk's lists of sources and objects;
#  - the suite's sources and objects, as make expands them, hold no boot/ file.
# It reads sources and asks make for variables: nothing is built. Each check
# first meets a small tree with one fault planted, which it must refuse, and
# one without, which it must accept.
# shellcheck disable=SC2016 # $(...) in single quotes is make's, not the shell's
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
tab=$(printf '\t')

# includes ROOT DIR...: each #include of the C files under ROOT/DIR, as
# FILE LINE KIND TARGET PATH (tab-separated; KIND q for "", a for <>; PATH:
# a "" target resolved from FILE's folder, relative to ROOT).
includes() {
	(cd "$1" && shift && for d in "$@"; do
		[ -d "$d" ] && find "$d" -type f \( -name '*.c' -o -name '*.h' \) \
			-exec grep -HnE '^[[:space:]]*#[[:space:]]*include' {} +
	done) | awk '
	function norm(p,   n, a, out, k, i, s) {
		n = split(p, a, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (a[i] == "" || a[i] == ".") continue
			if (a[i] == ".." && k > 0 && out[k] != "..") k--
			else out[++k] = a[i]
		}
		for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
		return s
	}
	{
		i = index($0, ":"); f = substr($0, 1, i - 1); rest = substr($0, i + 1)
		j = index(rest, ":"); ln = substr(rest, 1, j - 1); txt = substr(rest, j + 1)
		if (match(txt, /"[^"]*"/)) { kind = "q"; t = substr(txt, RSTART + 1, RLENGTH - 2) }
		else if (match(txt, /<[^>]*>/)) { kind = "a"; t = substr(txt, RSTART + 1, RLENGTH - 2) }
		else next
		d = f; sub(/\/[^\/]*$/, "", d)
		print f "\t" ln "\t" kind "\t" t "\t" (kind == "q" ? norm(d "/" t) : "")
	}'
}

# report TEXT: prints TEXT and fails when there is any.
report() {
	[ -z "$1" ] && return 0
	printf '%s\n' "$1"
	return 1
}

# no_boot_include ROOT: userland/, tools/ and common/ include no boot/ header.
no_boot_include() {
	report "$(includes "$1" userland tools common | while IFS=$tab read -r f ln kind t p; do
		case $kind:$p:$t in
		q:boot/*) echo "$f:$ln: #include \"$t\" is boot/'s ($p)" ;;
		q:*) [ ! -e "$1/$p" ] && [ -e "$1/boot/$t" ] &&
			echo "$f:$ln: #include \"$t\" is found only in boot/ (through -Iboot)" ;;
		a::boot/* | a::*/boot/*) echo "$f:$ln: #include <$t> is boot/'s" ;;
		esac
	done)"
}

# common_alone ROOT: common/ includes its own headers and freestanding ones only.
common_alone() {
	report "$(includes "$1" common | while IFS=$tab read -r f ln kind t p; do
		case $kind:$p:$t in
		q:common/*) [ -e "$1/$p" ] || echo "$f:$ln: #include \"$t\": no such file in common/" ;;
		q:*) echo "$f:$ln: #include \"$t\" is not a common/ header ($p)" ;;
		a::stddef.h | a::stdint.h | a::stdbool.h | a::stdarg.h | a::limits.h | a::float.h | \
			a::stdalign.h | a::stdnoreturn.h | a::iso646.h) ;;
		a:*) echo "$f:$ln: #include <$t> is not a freestanding header (common/ has no libc)" ;;
		esac
	done)"
}

# makefiles_keep_boot ROOT: no Makefile or *.mk but boot/boot.mk adds -Iboot,
# names a boot/*.c or uses one of boot.mk's *SRC*/*OBJ* lists. Comments
# (from # on) are not read.
makefiles_keep_boot() {
	lists=
	[ -f "$1/boot/boot.mk" ] && lists=$(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*[:+?]*=.*/\1/p' \
		"$1/boot/boot.mk" | grep -E 'SRC|OBJ' | sort -u | tr '\n' ' ')
	report "$(cd "$1" && find . \( -path ./build -o -path ./.git \) -prune -o -type f \
		\( -name Makefile -o -name makefile -o -name GNUmakefile -o -name '*.mk' \) -print |
		sed 's|^\./||' | grep -vx 'boot/boot.mk' | sort | while IFS= read -r mk; do
		awk -v lists="$lists" '
		BEGIN { n = split(lists, l, " ") }
		{
			s = $0; sub(/#.*/, "", s)
			if (s ~ /-I[[:space:]]*(\.\/|\$\(CURDIR\)\/|\$\(abspath[[:space:]]+)?boot\/?([[:space:])]|$)/)
				print FILENAME ":" FNR ": adds -Iboot: " $0
			if (s ~ /(^|[[:space:]=:(,])(\.\/)?boot\/[^[:space:]]*\.c([[:space:])]|$)/)
				print FILENAME ":" FNR ": names a boot/ source: " $0
			for (i = 1; i <= n; i++)
				if (index(s, "$(" l[i] ")") || index(s, "${" l[i] "}"))
					print FILENAME ":" FNR ": uses boot.mk'"'"'s " l[i] ": " $0
		}' "$mk"
	done)"
}

# suite_has_no_boot ROOT: USERLAND_SRC, USERLAND_OBJ and USERLAND_HOST_OBJ as
# make expands them (ROOT's Makefile, nothing built) name no boot/ file.
suite_has_no_boot() {
	words=$(make -C "$1" -s --no-print-directory \
		--eval 'tp-layers-print: ; @echo $(USERLAND_SRC) $(USERLAND_OBJ) $(USERLAND_HOST_OBJ)' \
		tp-layers-print 2>"$tmp/make.err") ||
		{ echo "make could not expand the suite's files: $(head -c 300 "$tmp/make.err")"; return 1; }
	[ -n "$words" ] || { echo "USERLAND_SRC is empty: nothing to check"; return 1; }
	report "$(for w in $words; do
		case $w in *boot/*) echo "the suite builds $w (USERLAND_SRC/_OBJ/_HOST_OBJ)" ;; esac
	done)"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# fixture NAME: a small tree that breaks no rule: a stub header and source,
# a suite file and a common/ file including what they may, a .mk naming the
# stub's output and, in a comment, its sources, and boot.mk's lists.
fixture() {
	t=$tmp/$1
	mkdir -p "$t/boot" "$t/common" "$t/userland/probes" "$t/tools/report"
	printf '#include <stdint.h>\n#include "../common/x.h"\n' > "$t/boot/calib.h"
	printf '#include "calib.h"\n#include <efi.h>\n' > "$t/boot/calib.c"
	printf '#include <stdint.h>\n#include "y.h"\n' > "$t/common/x.h"
	: > "$t/common/y.h"
	printf '#include <stdio.h>\n#include "../../common/x.h"\n#include "../probe.h"\n' > "$t/userland/probes/p.c"
	: > "$t/userland/probe.h"
	printf '#include "util.h"\n#include "../../common/x.h"\n' > "$t/tools/report/r.c"
	: > "$t/tools/report/util.h"
	printf 'STUB_HOST_SRC := boot/calib.c\nSTUB_HOST_OBJ := $(STUB_HOST_SRC:.c=.o)\nBOOT_LIB := x\n' > "$t/boot/boot.mk"
	printf 'B ?= build\n# boot/calib.c is the stub'"'"'s\nx: $(B)/boot/BOOTX64.EFI $(BOOT_LIB)\n' > "$t/tools/x.mk"
	printf 'B := build\nUSERLAND_SRC := userland/probes/p.c common/x.c\n' > "$t/Makefile"
	printf 'USERLAND_OBJ := $(patsubst %%.c,$(B)/musl/%%.o,$(USERLAND_SRC))\n' >> "$t/Makefile"
	printf 'USERLAND_HOST_OBJ := $(patsubst %%.c,$(B)/host/%%.o,$(USERLAND_SRC))\n' >> "$t/Makefile"
	echo "$t"
}

good=$(fixture good)
for check in no_boot_include common_alone makefiles_keep_boot suite_has_no_boot; do
	ok "$check: a tree that keeps the layers passes" "$check" "$good"
done

# plant CHECK NAME FILE LINE: the fixture with LINE added to FILE fails CHECK.
plant() {
	t=$(fixture "$2")
	printf '%s\n' "$4" >> "$t/$3"
	fails "$1 refuses $3: $4" "$1" "$t"
}
plant no_boot_include inc-path userland/probes/p.c '#include "../../boot/calib.h"'
plant no_boot_include inc-bare userland/probes/p.c '#include "calib.h"'
plant no_boot_include inc-tools tools/report/r.c '#include "../../boot/calib.h"'
plant no_boot_include inc-common common/y.h '#include "../boot/calib.h"'
plant no_boot_include inc-angle userland/probe.h '#include <boot/calib.h>'
plant common_alone common-userland common/y.h '#include "../userland/probe.h"'
plant common_alone common-libc common/y.h '#include <stdio.h>'
plant makefiles_keep_boot mk-iboot tools/x.mk 'CFLAGS += -Iboot -Icommon'
plant makefiles_keep_boot mk-iboot2 Makefile 'CFLAGS += -I boot'
plant makefiles_keep_boot mk-src Makefile 'USERLAND_SRC += boot/calib.c'
plant makefiles_keep_boot mk-wild tools/x.mk 'S := $(wildcard boot/*.c)'
plant makefiles_keep_boot mk-list Makefile 'USERLAND_SRC += $(STUB_HOST_SRC)'
plant suite_has_no_boot suite-src Makefile 'USERLAND_SRC += boot/calib.c'
plant suite_has_no_boot suite-obj Makefile 'USERLAND_OBJ += build/boot/host/boot/calib.o'
empty=$(fixture empty)
printf 'B := build\n' > "$empty/Makefile"
fails "suite_has_no_boot refuses a Makefile without USERLAND_SRC (nothing checked)" suite_has_no_boot "$empty"

# This tree.
ok "userland/, tools/ and common/ include no boot/ header" no_boot_include .
ok "common/ includes only common/ and freestanding headers" common_alone .
ok "no Makefile or *.mk but boot/boot.mk adds -Iboot or names the stub's sources" makefiles_keep_boot .
ok "the suite's sources and objects hold no boot/ file" suite_has_no_boot .
done_testing
