#!/bin/sh
# SPDX-License-Identifier: MIT
# `make -n TARGET` is a dry run for every phony target of the Makefile and
# its fragments: it prints recipes and starts no program but make. GNU make
# runs a recipe line that names $(MAKE), and every $(shell ...) it parses,
# even under -n; so such a line only recurses, and work that needs a program
# sits in a script. Checked two ways, on a build folder of its own
# (tests/lib/makedry.sh): stand-ins early in PATH for the programs recipes
# and scripts start (sh, QEMU, python3, the compilers, find, pkg-config)
# leave a mark when run; with strace, every execve of the whole process tree
# is make's own. ARCH=arm64's targets: tests/build/arm64-targets.t.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

. tests/lib/makedry.sh
makedry_setup

# The checks can fail: a recipe line that names $(MAKE) runs under -n, and
# its sh is seen.
# shellcheck disable=SC2016 # $(MAKE) is make's
printf 'x:\n\t$(MAKE) -f /dev/null -q; sh -c :\n' >"$tmp/control.mk"
dry B="$tmp/build" x -f "$tmp/control.mk" >/dev/null 2>&1
ok "control: a stand-in marks what make -n ran" test -s "$tmp/marks"
if [ -n "$have_strace" ]; then
	ok "control: strace sees what make -n ran" test -n "$(others)"
fi

targets=$(env -u MAKEFLAGS -u MAKELEVEL "$make_bin" -npq B="$tmp/build" 2>/dev/null |
	sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
# The list holds the targets the docs name (else a fragment went unread).
for t in all run matrix compare vm usb iso bench test test-all fuzz image test-lava sign; do
	case " $targets" in
	*" $t "*) ;;
	*) tap_result 0 "make's .PHONY list names $t" "$targets" ;;
	esac
done

for t in $targets; do
	out=$(dry B="$tmp/build" "$t" 2>&1)
	rc=$?
	pass $rc "make -n $t succeeds"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -3 | sed 's/^/#   /'
	dry_checks "make -n $t"
done
done_testing
