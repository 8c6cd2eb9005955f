#!/bin/sh
# SPDX-License-Identifier: MIT
# make deb, and what it gives: both packages' contents (dpkg-deb
# --contents), lintian with no error or warning (the overrides in
# debian/*.lintian-overrides say why), systemd-analyze verify on the units
# as installed, and the programs out of the package, which print
# debian/changelog's version (the build copy is not a git checkout).
# Slow (a whole build in a fresh copy; the appliance needs the cached kernel):
# a 9x test, run by make test-all, not make test. make install: tests/host/install.t.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
	{ echo "1..0 # SKIP no dpkg-buildpackage or debhelper (tools/deps.sh installs them)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-deb.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
out=build/deb
ver=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog)
arch=$(dpkg --print-architecture)
tp=$out/timeprobe_${ver}_$arch.deb
app=$out/timeprobe-appliance_${ver}_all.deb

start=$(date +%s)
ok "make deb" make -s --no-print-directory deb
echo "# make deb took $(($(date +%s) - start)) s (nice -n 10, -j2)"
ok "built: $tp" test -f "$tp"
ok "built: $app" test -f "$app"

dpkg-deb --contents "$tp" > "$tmp/tp.list" 2>&1
for f in ./usr/bin/timeprobe ./usr/bin/tp-report ./usr/share/man/man1/timeprobe.1.gz \
	./usr/share/man/man1/tp-report.1.gz ./usr/share/bash-completion/completions/timeprobe \
	./usr/share/bash-completion/completions/tp-report ./lib/systemd/system/timeprobe-textfile.service \
	./lib/systemd/system/timeprobe-textfile.timer ./usr/share/doc/timeprobe/copyright; do
	ok "timeprobe holds $f" grep -q " $f\( \|$\)" "$tmp/tp.list"
done
dpkg-deb --contents "$app" > "$tmp/app.list" 2>&1
for f in ./usr/share/timeprobe/timeprobe.efi ./usr/share/timeprobe/timeprobe.iso; do
	ok "timeprobe-appliance holds $f" grep -q " $f$" "$tmp/app.list"
done

if command -v lintian >/dev/null; then
	lintian --fail-on error,warning "$tp" "$app" > "$tmp/lintian" 2>&1
	pass $? "lintian: no error or warning"
	sed 's/^/# /' "$tmp/lintian"
else
	skip "lintian" "not installed (tools/deps.sh installs it)"
fi

# verify_units ROOT DIR: systemd-analyze verify on the units in ROOT's DIR,
# in a copy of ROOT as the root (their ExecStart= there) with this host's own
# units beside them (sysinit.target, timers.target...)
verify_units() {
	rm -rf "$tmp/vroot"
	cp -a "$1" "$tmp/vroot" && cp -rn /lib/systemd/system/. "$tmp/vroot$2/" 2>/dev/null
	systemd-analyze verify --root="$tmp/vroot" --man=no "$2/timeprobe-textfile.timer" "$2/timeprobe-textfile.service"
}
root=$tmp/root
dpkg-deb -x "$tp" "$root"
ok "the packaged timeprobe says the changelog's version" sh -c '[ "$("$1/usr/bin/timeprobe" --version)" = "timeprobe $2" ]' - "$root" "$ver"
ok "the packaged tp-report too" sh -c '[ "$("$1/usr/bin/tp-report" --version)" = "tp-report $2" ]' - "$root" "$ver"
ok "the service runs /usr/bin/timeprobe" grep -q '^ExecStart=/usr/bin/timeprobe run ' "$root/lib/systemd/system/timeprobe-textfile.service"
if command -v systemd-analyze >/dev/null; then
	verify_units "$root" /lib/systemd/system > "$tmp/verify" 2>&1
	pass $? "systemd-analyze verify: the timer and the service"
	ok "... and it said nothing" test ! -s "$tmp/verify"
	sed 's/^/# /' "$tmp/verify"
else
	skip "systemd-analyze verify" "no systemd-analyze"
fi
done_testing
