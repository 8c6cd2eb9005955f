#!/bin/sh
# SPDX-License-Identifier: MIT
# Decides how QEMU runs guests on this machine: the one place that knows.
#
#   tools/accel.sh [--recheck] [--quiet]
#
# Prints one line on stdout:   ACCEL CPU
#   kvm host                          KVM works with the host's CPU model
#   kvm host,-arch-capabilities       KVM works once that feature is dropped
#   tcg max                           software emulation
# and says on stderr why it chose TCG where /dev/kvm exists. Exit status 0,
# or 1 when ACCEL=kvm was asked for and KVM does not work here.
#
# ACCEL=auto (default) proves KVM before using it: the same OVMF firmware the
# appliance boots is started under KVM and must print its boot manager's
# first line ("BdsDxe:") on the serial port within ACCEL_CHECK_S seconds
# (default 30). A /dev/kvm whose guests abort (a CPU feature KVM refuses to
# set, e.g. MSR 0x10a IA32_ARCH_CAPABILITIES under nested virtualisation) or
# stop with "KVM internal error" fails that check, and TCG is used instead.
# The verdict is cached per machine (QEMU binary and version, host kernel,
# CPU, firmware) in $TIMEPROBE_CACHE, so the check costs seconds once.
# ACCEL=tcg skips the check; ACCEL=kvm fails fast, with the reason, when the
# check fails. ARCH=arm64 (make ARCH=arm64) asks for an arm64 guest: TCG
# always (KVM runs only the host's own architecture, and the check above
# knows x86 hosts only), so no check is made.
set -eu

recheck= quiet=
for a in "$@"; do
	case $a in
	--recheck) recheck=1 ;;
	--quiet) quiet=1 ;;
	*) echo "accel: unknown option $a (known: --recheck --quiet)" >&2; exit 2 ;;
	esac
done

want=${ACCEL:-auto}
case $want in
auto|kvm|tcg) ;;
*) echo "accel: ACCEL=$want is not one of auto, kvm, tcg" >&2; exit 2 ;;
esac
if [ "$want" = tcg ]; then
	echo "tcg max"
	exit 0
fi
case ${ARCH:-x86} in
arm64|aarch64)
	if [ "$want" = kvm ]; then
		[ -n "$quiet" ] || echo "qemu-run: ACCEL=kvm: arm64 guests run under TCG here (host $(uname -m))" >&2
		exit 1
	fi
	echo "tcg max"
	exit 0 ;;
esac

say() { [ -n "$quiet" ] || echo "qemu-run: $*" >&2; }

# Without a usable /dev/kvm there is nothing to prove.
if [ ! -e /dev/kvm ]; then
	[ "$want" = kvm ] && { say "ACCEL=kvm but this machine has no /dev/kvm"; exit 1; }
	echo "tcg max"
	exit 0
fi
if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
	[ "$want" = kvm ] && { say "ACCEL=kvm but /dev/kvm is not readable and writable for $(id -un)"; exit 1; }
	say "/dev/kvm is not readable and writable for $(id -un); using TCG"
	echo "tcg max"
	exit 0
fi

qemu=$(command -v qemu-system-x86_64) || { echo "accel: qemu-system-x86_64 not found (apt-get install qemu-system-x86)" >&2; exit 1; }
code=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
vars=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
[ -f "$code" ] || { echo "accel: $code missing (apt-get install ovmf)" >&2; exit 1; }
cache=${TIMEPROBE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/timeprobe}
limit=${ACCEL_CHECK_S:-30}

key=$( {
	echo "$qemu"
	"$qemu" --version 2>/dev/null | head -n1
	uname -r
	grep -m1 '^model name' /proc/cpuinfo || true
	grep -m1 '^microcode' /proc/cpuinfo || true
	cksum < "$code"
} | cksum | tr ' ' '-')
verdict="$cache/accel-$key"

# check CPU: boots the firmware under KVM with -cpu CPU; prints "ok" or the
# reason it failed on stdout.
check() {
	tmp=$(mktemp -d /tmp/timeprobe-accel.XXXXXX)
	cp "$vars" "$tmp/vars"
	"$qemu" -machine q35,accel=kvm -cpu "$1" -smp 1 -m 256 -nodefaults -nographic \
		-serial stdio -monitor none -net none -no-reboot \
		-drive if=pflash,format=raw,readonly=on,file="$code" \
		-drive if=pflash,format=raw,file="$tmp/vars" </dev/null >"$tmp/log" 2>&1 &
	pid=$!
	i=0 result=
	while [ -z "$result" ]; do
		if grep -aq 'BdsDxe:' "$tmp/log"; then
			result=ok
		elif grep -aq 'KVM internal error' "$tmp/log"; then
			result="the guest stopped in the firmware with a KVM internal error"
			grep -aq 'emulation failure' "$tmp/log" && result="$result (emulation failure)"
		elif ! kill -0 "$pid" 2>/dev/null; then
			# it may have printed the line between our grep and its exit: look again
			wait "$pid" && st=0 || st=$?
			if grep -aq 'BdsDxe:' "$tmp/log"; then
				result=ok
			else
				result="QEMU exited with status $st: $(grep -a -v '^$' "$tmp/log" | head -n1 | tr -d '\r' | cut -c1-160)"
			fi
		elif [ "$i" -ge $((limit * 5)) ]; then
			result="the firmware printed nothing in $limit s"
		else
			sleep 0.2
			i=$((i + 1))
		fi
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rm -rf "$tmp"
	echo "$result"
}

if [ -n "$recheck" ] || [ ! -s "$verdict" ]; then
	mkdir -p "$cache"
	t0=$(date +%s)
	reason=
	choice="tcg max"
	for cpu in host host,-arch-capabilities; do
		r=$(check "$cpu")
		if [ "$r" = ok ]; then
			choice="kvm $cpu"
			reason=
			break
		fi
		reason="${reason:+$reason; }-cpu $cpu: $r"
	done
	printf '%s\n%s\n' "$choice" "$reason" > "$verdict.tmp"
	mv "$verdict.tmp" "$verdict"
	say "KVM self-check took $(( $(date +%s) - t0 )) s: $(head -n1 "$verdict")"
fi

choice=$(sed -n 1p "$verdict")
reason=$(sed -n 2p "$verdict")
case $choice in
kvm\ *) echo "$choice" ;;
*)
	if [ "$want" = kvm ]; then
		say "ACCEL=kvm but KVM is unusable here ($reason)"
		exit 1
	fi
	# the whole reason once, when it was found; a short line after that
	if [ -n "${t0:-}" ]; then
		say "KVM present but unusable here ($reason); using TCG"
	else
		say "KVM unusable here (found before: $(dirname "$verdict")); using TCG"
	fi
	echo "tcg max"
	;;
esac
