#!/bin/sh
# SPDX-License-Identifier: MIT
# `make -n TARGET` is a dry run for every phony target of the Makefile and
# its fragments: it prints recipes and starts no program but make. GNU make
# runs a recipe line that names $(MAKE), and every $(shell ...) it parses,
# even under -n; so such a line only recurses, and work that needs a program
# sits in a script. Checked two ways, on a build folder of its own:
# - stand-ins early in PATH for the programs recipes and scripts start (sh,
#   QEMU, python3, the compilers, find, pkg-config) leave a mark when run;
# - with strace, every execve of the whole process tree is make's own.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

make_bin=$(command -v make) || { echo "1..0 # SKIP make missing"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-makedry.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/bin"
for p in sh bash dash qemu-system-x86_64 python3 perl gcc cc clang musl-gcc ld objcopy \
		find pkg-config prove tar sbsign mtools mformat sgdisk xorriso lava-run; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/marks"\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done

have_strace=
if command -v strace >/dev/null 2>&1 && strace -f -qq -e trace=execve -o /dev/null true 2>/dev/null; then
	have_strace=1
fi

# dry TARGET [MAKE-ARGS...]: make -n TARGET with the stand-ins first in PATH (under strace
# when there is one); its execve log in $tmp/exec, the stand-ins' marks in
# $tmp/marks.
dry() {
	rm -f "$tmp/marks" "$tmp/exec"
	set -- "$make_bin" -n B="$tmp/build" "$@"
	[ -z "$have_strace" ] || set -- strace -f -qq -e trace=execve -e signal=none -o "$tmp/exec" "$@"
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u GNUMAKEFLAGS -u MAKEOVERRIDES \
		PATH="$tmp/bin:$PATH" ACCEL=tcg TIMEPROBE_CACHE="$tmp/cache" "$@"
}

# The programs other than make that the last dry run started, one a line.
others() {
	sed -n 's/^[0-9]* *execve("\([^"]*\)".*/\1/p' "$tmp/exec" | grep -vxF "$make_bin" | sort -u
}

# The checks can fail: a recipe line that names $(MAKE) runs under -n, and
# its sh is seen.
# shellcheck disable=SC2016 # $(MAKE) is make's
printf 'x:\n\t$(MAKE) -f /dev/null -q; sh -c :\n' >"$tmp/control.mk"
dry x -f "$tmp/control.mk" >/dev/null 2>&1
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
	out=$(dry "$t" 2>&1)
	rc=$?
	pass $rc "make -n $t succeeds"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -3 | sed 's/^/#   /'
	if [ -e "$tmp/marks" ]; then
		tap_result 0 "make -n $t starts none of the stand-ins" "$(cat "$tmp/marks")"
	else
		tap_result 1 "make -n $t starts none of the stand-ins"
	fi
	if [ -z "$have_strace" ]; then
		skip "make -n $t runs only $make_bin" "strace missing or not allowed here (apt-get install strace)"
	elif ! grep -qF "execve(\"$make_bin\"" "$tmp/exec"; then
		tap_result 0 "make -n $t runs only $make_bin" "strace logged no execve of make"
	elif [ -n "$(others)" ]; then
		tap_result 0 "make -n $t runs only $make_bin" "$(others)"
	else
		tap_result 1 "make -n $t runs only $make_bin"
	fi
done
done_testing
