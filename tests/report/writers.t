#!/bin/sh
# SPDX-License-Identifier: MIT
# Every file tp-report writes under a name it was given goes through one
# writer (tools/report/outfile.c): a fresh name beside it, then a rename.
# A symlink planted at the name, at NAME.tmp or at any file a --html or
# --plot directory gets (gnuplot's images too) is replaced, never written
# through: the file it points at keeps its bytes.
. "$(dirname "$0")/lib.sh"

LOG=tests/data/report-host.log
echo "the victim's own bytes" >"$TMP/victim"
cp "$TMP/victim" "$TMP/victim.orig"

# untouched: the victim has its bytes and no temporary is left beside NAME
untouched() {
	cmp -s "$TMP/victim" "$TMP/victim.orig" &&
		[ -z "$(find "$(dirname "$1")" -name "$(basename "$1").??????" -o -name '.gnuplot.*')" ]
}

# --datasheet=FILE: symlinks at FILE.tmp (the old fixed temporary) and at FILE
mkdir "$TMP/ds"
ln -s "$TMP/victim" "$TMP/ds/sheet.json.tmp"
run "$TP_REPORT" --datasheet="$TMP/ds/sheet.json" "$LOG"
[ $rc -eq 0 ] && untouched "$TMP/ds/sheet.json" && [ -L "$TMP/ds/sheet.json.tmp" ] &&
	python3 -c 'import json, sys; sys.exit("tsc_freq_khz" not in json.load(open(sys.argv[1])))' \
		"$TMP/ds/sheet.json"
pass $? "--datasheet: a symlink at FILE.tmp is left alone, FILE holds the datasheet"
diag "$TMP/err"
rm "$TMP/ds/sheet.json"
ln -s "$TMP/victim" "$TMP/ds/sheet.json"
run "$TP_REPORT" --datasheet="$TMP/ds/sheet.json" "$LOG"
[ $rc -eq 0 ] && untouched "$TMP/ds/sheet.json" && [ ! -L "$TMP/ds/sheet.json" ] &&
	grep -q '"tsc_freq_khz"' "$TMP/ds/sheet.json"
pass $? "--datasheet: a symlink at FILE is replaced by the datasheet, its target unchanged"

# --textfile=FILE: the same
mkdir "$TMP/prom"
ln -s "$TMP/victim" "$TMP/prom/t.prom.tmp"
ln -s "$TMP/victim" "$TMP/prom/t.prom"
run "$TP_REPORT" --textfile="$TMP/prom/t.prom" "$LOG"
[ $rc -eq 0 ] && untouched "$TMP/prom/t.prom" && [ ! -L "$TMP/prom/t.prom" ] &&
	grep -q '^# TYPE timeprobe_' "$TMP/prom/t.prom"
pass $? "--textfile: symlinks at FILE and FILE.tmp: FILE holds the metrics, the target unchanged"
diag "$TMP/err"

# trap_dir OPTION DIR ARGS...: the option writes once into a clean directory
# for the names it uses, then again into DIR with a symlink at each of them
trap_dir() {
	opt=$1 dir=$2
	shift 2
	"$TP_REPORT" "$opt=$dir.clean" "$@" >/dev/null 2>&1
	names=$(cd "$dir.clean" && ls)
	mkdir "$dir"
	for f in $names; do
		ln -s "$TMP/victim" "$dir/$f"
		ln -s "$TMP/victim" "$dir/$f.tmp"
	done
	run timeout 120 "$TP_REPORT" "$opt=$dir" "$@"
	[ $rc -eq 0 ] && [ -n "$names" ] && untouched "$dir/x" || return 1
	for f in $names; do
		[ -f "$dir/$f" ] && [ ! -L "$dir/$f" ] && [ -L "$dir/$f.tmp" ] || return 1
	done
	echo "# $opt: $(echo $names | wc -w) files, each a symlink before"
}

trap_dir --plot "$TMP/plots" "$LOG"
pass $? "--plot: every chart's .dat, .gp and image replaces the symlink at its name"
diag "$TMP/err"
trap_dir --html "$TMP/page" "$LOG"
pass $? "--html: the page and its charts replace the symlinks at their names"
diag "$TMP/err"
python3 tools/bench/fleet-data.py tests/data/serial-q35-lava.log "$TMP/fleet" 3
trap_dir --html "$TMP/fleet-page" --fleet "$TMP/fleet"
pass $? "--fleet --html: the page, its script, data and images replace the symlinks"
diag "$TMP/err"

done_testing
