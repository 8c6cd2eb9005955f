#!/bin/sh
# SPDX-License-Identifier: MIT
# make install into a scratch DESTDIR, then the installed programs with a
# clean environment (env -i, PATH only the scratch bin): --version, -h on
# every command, the man pages holding every option of the tables, the bash
# completion; docs/fleet.md's cron line, taken from the page, run as cron
# runs it (the textfile folder moved under the scratch root), its textfile
# checked by promtool, then served by Debian's node_exporter and scraped by
# its Prometheus (tests/lib/scrape.py: one figure equal to the job's record,
# a skip with the reason where either cannot start); make uninstall leaves no file. The package: tests/boot/97-deb.t.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
bin=$root/usr/local/bin
clean() { env -i PATH="$bin" "$@"; }
# verify_units ROOT DIR: systemd-analyze verify on the units in ROOT's DIR,
# in a copy of ROOT as the root (their ExecStart= there) with this host's own
# units beside them (sysinit.target, timers.target...)
verify_units() {
	rm -rf "$tmp/vroot"
	cp -a "$1" "$tmp/vroot" && cp -rn /lib/systemd/system/. "$tmp/vroot$2/" 2>/dev/null
	systemd-analyze verify --root="$tmp/vroot" --man=no "$2/timeprobe-textfile.timer" "$2/timeprobe-textfile.service"
}

ok "make install DESTDIR=... PREFIX=/usr/local" make -s --no-print-directory install DESTDIR="$root" PREFIX=/usr/local
for f in bin/timeprobe bin/tp-report share/man/man1/timeprobe.1 share/man/man1/tp-report.1 \
	share/bash-completion/completions/timeprobe share/bash-completion/completions/tp-report \
	lib/systemd/system/timeprobe-textfile.service lib/systemd/system/timeprobe-textfile.timer; do
	ok "installed: $f" test -e "$root/usr/local/$f"
done
if [ -f build/timeprobe.efi ]; then
	ok "installed: share/timeprobe/timeprobe.efi, the same bytes" cmp build/timeprobe.efi "$root/usr/local/share/timeprobe/timeprobe.efi"
else
	skip "installed: share/timeprobe/timeprobe.efi" "no build/timeprobe.efi (make efi)"
fi
ok "the service runs the installed timeprobe" grep -q "^ExecStart=/usr/local/bin/timeprobe run " \
	"$root/usr/local/lib/systemd/system/timeprobe-textfile.service"
if command -v systemd-analyze >/dev/null; then
	ok "systemd-analyze verify: the timer and the service" verify_units "$root" /usr/local/lib/systemd/system
	# The check can fail: a unit whose ExecStart= is not there is refused.
	mv "$bin/timeprobe" "$bin/timeprobe.away"
	fails "... and one whose program is missing is refused" verify_units "$root" /usr/local/lib/systemd/system
	mv "$bin/timeprobe.away" "$bin/timeprobe"
else
	skip "systemd-analyze verify" "no systemd-analyze"
fi

# ---- the installed programs, alone ----
# the version the build baked in (build/version.h, from tools/version.sh)
v=$(sed -n 's/^#define TP_VERSION "\(.*\)"$/\1/p' build/version.h)
ok "the build's version is git's or the changelog's ($v)" sh -c 'case $1 in "$(git describe --tags --always 2>/dev/null)"* | "$2") ;; *) exit 1 ;; esac' \
	- "$v" "$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' debian/changelog)"
ok "timeprobe --version: the build's version" sh -c '[ "$(env -i "$1/timeprobe" --version)" = "timeprobe $2" ]' - "$bin" "$v"
ok "tp-report --version" sh -c '[ "$(env -i "$1/tp-report" --version)" = "tp-report $2" ]' - "$bin" "$v"
ok "timeprobe report --version finds tp-report beside it" sh -c '[ "$(env -i PATH=/nonexistent "$1/timeprobe" report --version)" = "tp-report $2" ]' - "$bin" "$v"
for c in run list report check-words help; do
	for h in -h --help; do
		ok "timeprobe $c $h: usage and exit status" sh -c 'out=$("$@") && case $out in usage:*"Exit status"*) ;; *) exit 1 ;; esac' \
			- env -i PATH="$bin" timeprobe $c $h
	done
done
ok "timeprobe run --probes=clocks -h: the help, no run" sh -c 'out=$(env -i PATH="$1" timeprobe run --probes=clocks -h) && case $out in usage:*) ;; *) exit 1 ;; esac' - "$bin"
exits "a bad option still exits 2" 2 clean timeprobe run --no-such-option=1
exits "timeprobe --nonsense exits 2" 2 clean timeprobe --nonsense

# ---- the man pages: every option of the tables ----
# page_lacks PAGE NAME...: the names not at the head of a line of the page as man shows it
page_lacks() {
	page=$1
	shift
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | col -bx)
	for o; do
		printf '%s\n' "$text" | grep -qE "^ +$o( |$)" || printf '%s\n' "$o"
	done
}
tp_opts=$(clean timeprobe help markdown | sed -n '/^$/q; s/^| `\([a-z][a-z0-9_-]*\)` |.*/\1/p')
r_opts=$(clean tp-report --help | sed -n 's/^  \(--[a-z-]*\) .*/\1/p')
ok "the table has options ($(echo "$tp_opts" | wc -l) and $(echo "$r_opts" | wc -l))" test -n "$tp_opts" -a -n "$r_opts"
# shellcheck disable=SC2086 # one argument per option
ok "timeprobe(1) lists every option of the table" test -z "$(page_lacks "$root/usr/local/share/man/man1/timeprobe.1" $tp_opts)"
# shellcheck disable=SC2086
ok "tp-report(1) lists every option of its table" test -z "$(page_lacks "$root/usr/local/share/man/man1/tp-report.1" $r_opts)"
# The check can fail: a page without one option's line is caught.
first=$(echo "$tp_opts" | head -1)
grep -v "^  $first  " "$root/usr/local/share/man/man1/timeprobe.1" > "$tmp/drift.1"
ok "a page without '$first' is caught" test "$(page_lacks "$tmp/drift.1" "$first")" = "$first"
ok "man shows timeprobe(1) without warnings" sh -c '! MANWIDTH=80 man -l --warnings -Tutf8 "$1" 2>&1 >/dev/null | grep -q .' - "$root/usr/local/share/man/man1/timeprobe.1"

# ---- bash completion ----
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
	# complete LINE: what the installed completion offers for LINE (cursor at its end)
	complete_line() {
		bash -c '. "$1"; . "$2"; COMP_LINE=$3; COMP_POINT=${#3}; read -ra COMP_WORDS <<< "$3"
			[[ $3 == *" " ]] && COMP_WORDS+=("")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _timeprobe timeprobe 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' \
			- "$bc" "$root/usr/local/share/bash-completion/completions/timeprobe" "$1"
	}
	ok "completion: timeprobe ch -> check-words" sh -c '[ "$1" = check-words ]' - "$(complete_line 'timeprobe ch')"
	ok "completion: timeprobe run --prof -> --profile=" sh -c '[ "$1" = --profile= ]' - "$(complete_line 'timeprobe run --prof')"
	ok "completion: timeprobe report --form -> --format=" sh -c '[ "$1" = --format= ]' - "$(complete_line 'timeprobe report --form')"
else
	skip "completion" "no $bc (Debian's bash-completion; tools/deps.sh installs it)"
fi

# ---- docs/fleet.md's cron file, as cron runs it ----
# The block after "/etc/cron.d/timeprobe": its PATH= line and its job line.
block=$(awk '/\/etc\/cron\.d\/timeprobe/ { f = 1 } f && /^```$/ { if (in_) exit; in_ = 1; next } in_' docs/fleet.md)
cron_path=$(printf '%s\n' "$block" | sed -n 's/^PATH=//p')
job=$(printf '%s\n' "$block" | awk '/^[0-9*]/ { $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print }')
ok "docs/fleet.md has a cron PATH and a job ($job)" test -n "$cron_path" -a -n "$job"
dir=/var/lib/prometheus/node-exporter
case $job in *"$dir/timeprobe.prom"*) ok "the job writes into node_exporter's folder" true ;;
*) ok "the job writes into node_exporter's folder" false ;; esac
# the doc's PATH, each folder under the scratch root; the textfile folder there too
scratch_path=$(printf '%s\n' "$cron_path" | tr ':' '\n' | sed "s|^|$root|" | paste -sd:)
mkdir -p "$root$dir"
start=$(date +%s)
# its records kept (the doc sends them to /dev/null): the scrape below checks a figure against them
ok "the cron job runs (env -i, cron's variables)" env -i HOME=/root LOGNAME=root SHELL=/bin/sh PATH="$scratch_path" \
	/bin/sh -c "$(printf '%s\n' "$job" | sed -e "s|$dir|$root$dir|g" -e "s|>/dev/null|>$tmp/job.tp1|")"
echo "# the job (the quick profile) took $(($(date +%s) - start)) s"
ok "its textfile is there, alone in the folder" sh -c '[ "$(ls "$1")" = timeprobe.prom ]' - "$root$dir"
if command -v promtool >/dev/null; then
	ok "promtool check metrics accepts the textfile" sh -c 'promtool check metrics < "$1"' - "$root$dir/timeprobe.prom"
else
	skip "promtool check metrics" "promtool not installed (Debian's prometheus; tools/deps.sh)"
fi
ok "the textfile has the run's start" grep -q '^timeprobe_run_start_timestamp_seconds' "$root$dir/timeprobe.prom"
# node_exporter serving the folder and Prometheus scraping it (tests/lib/scrape.py)
scraped=$(python3 tests/lib/scrape.py "$root$dir" "$tmp/job.tp1")
rc=$?
printf '%s\n' "$scraped" | sed 's/^/# /'
if [ "$rc" = 77 ]; then
	skip "node_exporter serves the textfile, Prometheus scrapes a figure equal to its record" "$scraped"
else
	pass "$rc" "node_exporter serves the textfile, Prometheus scrapes a figure equal to its record"
fi

# ---- docs/fleet.md's backfill, as written, in a folder of results ----
if command -v promtool >/dev/null; then
	mkdir -p "$tmp/bf/results"
	D=$(sh tests/lib/testdata.sh) || exit 1	# tests/data, its sets of runs extracted
	cp "$D/aa-host3-1-a.log" "$tmp/bf/results/node-1.tp1"
	cp "$D/aa-host3-2-a.log" "$tmp/bf/results/node-2.tp1"
	awk '/^## Appliance results: backfill/ { f = 1 } f && /^```$/ { if (in_) exit; in_ = 1; next } in_' \
		docs/fleet.md > "$tmp/bf/backfill.sh"
	ok "docs/fleet.md's backfill names tp-report and promtool" sh -c 'grep -q "^tp-report " "$1" && grep -q "^promtool " "$1"' - "$tmp/bf/backfill.sh"
	ok "the backfill runs with the installed tp-report" sh -c 'cd "$1" && env -i PATH="$2:/usr/bin:/bin" sh -e backfill.sh' - "$tmp/bf" "$bin"
	ok "... and makes blocks" sh -c '[ -n "$(ls "$1/blocks")" ]' - "$tmp/bf"
else
	skip "docs/fleet.md's backfill" "promtool not installed (Debian's prometheus; tools/deps.sh)"
fi

# ---- make uninstall ----
ok "make uninstall" make -s --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr/local
rm -f "$root$dir/timeprobe.prom"
ok "no file left" sh -c '[ -z "$(find "$1" -type f -o -type l)" ]' - "$root"
done_testing
