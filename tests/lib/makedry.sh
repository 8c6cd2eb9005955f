# SPDX-License-Identifier: MIT
# Dry runs of make for the tests/build/*.t that check make -n (sourced after
# tests/lib/tap.sh, with $tmp a fresh folder): stand-ins early in PATH for
# the programs recipes and scripts start leave a mark when run, and with
# strace every execve of the whole process tree is logged.
#
#   makedry_setup           make_bin (make's path; without make the test is
#                           skipped), $tmp a fresh folder removed at exit,
#                           the stand-ins in $tmp/bin; have_strace set or empty
#   dry MAKE-ARGS...        make -n MAKE-ARGS under them: make's output on
#                           stdout and stderr, its execve log in $tmp/exec, the
#                           stand-ins' marks in $tmp/marks
#   others                  the programs other than make the last dry run
#                           started, one a line
#   dry_checks NAME         two results: no stand-in ran, and only make ran

makedry_setup() {
	make_bin=$(command -v make) || { echo "1..0 # SKIP make missing"; exit 0; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-makedry.XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
	mkdir "$tmp/bin"
	for p in sh bash dash qemu-system-x86_64 qemu-system-aarch64 python3 perl gcc cc clang \
			musl-gcc aarch64-linux-musl-gcc aarch64-linux-gnu-gcc ld objcopy find pkg-config \
			prove tar sbsign mtools mformat sgdisk xorriso lava-run; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/marks"\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
		chmod +x "$tmp/bin/$p"
	done
	have_strace=
	if command -v strace >/dev/null 2>&1 && strace -f -qq -e trace=execve -o /dev/null true 2>/dev/null; then
		have_strace=1
	fi
}

dry() {
	rm -f "$tmp/marks" "$tmp/exec"
	set -- "$make_bin" -n "$@"
	[ -z "$have_strace" ] || set -- strace -f -qq -e trace=execve -e signal=none -o "$tmp/exec" "$@"
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u GNUMAKEFLAGS -u MAKEOVERRIDES -u ARCH \
		PATH="$tmp/bin:$PATH" ACCEL=tcg TIMEPROBE_CACHE="$tmp/cache" "$@"
}

others() {
	sed -n 's/^[0-9]* *execve("\([^"]*\)".*/\1/p' "$tmp/exec" | grep -vxF "$make_bin" | sort -u
}

dry_checks() {
	if [ -e "$tmp/marks" ]; then
		tap_result 0 "$1 starts none of the stand-ins" "$(cat "$tmp/marks")"
	else
		tap_result 1 "$1 starts none of the stand-ins"
	fi
	if [ -z "$have_strace" ]; then
		skip "$1 runs only $make_bin" "strace missing or not allowed here (apt-get install strace)"
	elif ! grep -qF "execve(\"$make_bin\"" "$tmp/exec"; then
		tap_result 0 "$1 runs only $make_bin" "strace logged no execve of make"
	elif [ -n "$(others)" ]; then
		tap_result 0 "$1 runs only $make_bin" "$(others)"
	else
		tap_result 1 "$1 runs only $make_bin"
	fi
}
