#!/bin/sh
# SPDX-License-Identifier: MIT
# --html=DIR: one page with the report's sections and every plot, its
# images embedded; drawn by headless Chromium, the screenshot is not blank.
# A wakeup histogram's bucket of one sample is drawn.
. "$(dirname "$0")/lib.sh"

# a capture whose wakeup histogram has one outlier alone in bucket 250 (250-251 us)
tp1 '{"type":"run","version":"t","env":"os","machine":"test"}' \
	'{"type":"result","probe":"wakeup","name":"clock_nanosleep 1000us","period_us":1000,"samples":1401,"min_ns":2100,"avg_ns":3100,"p50_ns":3000,"p99_ns":4400,"p999_ns":4900,"max_ns":250400,"hist":{"width_ns":1000,"buckets":{"2":400,"3":1000,"250":1},"overflow":0}}' \
	'{"type":"end","probes_ok":1,"probes_skipped":0,"probes_failed":0}' >"$TMP/outlier.log"
run "$TP_REPORT" --plot="$TMP/one" "$TMP/outlier.log"
pass $rc "a capture with a one-sample bucket plots"
diag "$TMP/err"
grep -q "^250.5	1$" "$TMP/one/hist-01-wakeup.dat"
pass $? "hist: the bucket of one sample is in the data (250.5 us, count 1)"
# the count axis is log with its floor below 1: a count of 1 stands above it
grep -q "^set logscale y" "$TMP/one/hist-01-wakeup.gp" &&
	awk '/^set yrange/ { split($3, r, /[\[:\]]/); found = r[2] == 0.5 && r[3] > 1000 }
		END { exit !found }' "$TMP/one/hist-01-wakeup.gp"
pass $? "hist: the y range runs from 0.5, below a count of 1, past the largest count"
grep -q "with points pt 7" "$TMP/one/hist-01-wakeup.gp"
pass $? "hist: every bucket also a point, so a narrow one is seen"
for m in p50 p99 p99.9 max; do
	grep -q "^set label '$m' at " "$TMP/one/hist-01-wakeup.gp" || exit 1
done
pass $? "hist: p50, p99, p99.9 and max marked"
# the tail spans decades: a log x axis that reaches past the outlier
awk '/^set xrange/ { split($3, r, /[\[:\]]/); exit !(r[3] > 250.5) }' "$TMP/one/hist-01-wakeup.gp" &&
	grep -q "^set logscale x" "$TMP/one/hist-01-wakeup.gp"
pass $? "hist: the x range reaches the outlier"

# a histogram with no positive count draws nothing rather than an empty axis
tp1 '{"type":"result","probe":"wakeup","name":"clock_nanosleep 1000us","period_us":1000,"max_ns":5000,"hist":{"width_ns":1000,"buckets":{"3":-5,"4":0},"overflow":0}}' >"$TMP/empty.log"
run "$TP_REPORT" --plot="$TMP/none" "$TMP/empty.log"
[ $rc -eq 0 ] && [ ! -e "$TMP/none/hist-01-wakeup.gp" ]
pass $? "hist: no bucket with a count, no chart"
diag "$TMP/err"

LOGS="tests/data/report-qemu.log tests/data/report-host.log tests/data/report-kvm.log"
# shellcheck disable=SC2086
run "$TP_REPORT" --html="$TMP/page" $LOGS
pass $rc "--html: exit 0"
diag "$TMP/err"
[ "$(cat "$TMP/out")" = "$TMP/page/index.html" ]
pass $? "--html: stdout names the page, and nothing else"
P="$TMP/page/index.html"
[ -s "$P" ] && head -1 "$P" | grep -q "^<!DOCTYPE html>"
pass $? "--html: DIR/index.html written"
for id in conditions differences tables plots; do
	grep -q "<section id=\"$id\">" "$P" || exit 1
done
pass $? "--html: sections conditions, differences, tables, plots"
ncharts=$(ls "$TMP/page"/*.gp | wc -l)
[ "$ncharts" -ge 5 ] && [ "$(grep -o "<figure id=\"plot-" "$P" | wc -l)" = "$ncharts" ] &&
	[ "$(grep -o "<figcaption>Figure " "$P" | wc -l)" = "$ncharts" ]
pass $? "--html: every plot a figure with a caption ($ncharts)"

if ! command -v gnuplot >/dev/null; then
	echo "# SKIP gnuplot not installed: no images to embed (apt-get install gnuplot-nox)"
	done_testing
fi
[ "$(grep -o 'src="data:image/png;base64,iVBORw0KGgo' "$P" | wc -l)" = "$ncharts" ] &&
	! grep -q 'src="[^d]' "$P"
pass $? "--html: every image embedded as a PNG data: URI (the page stands alone)"

CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	echo "# SKIP chromium not installed (tools/deps.sh test, or apt-get install chromium)"
	done_testing
fi
# headless, as root in a container: no sandbox; a profile of its own in TMP
chrome() {
	timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP/profile" "$@" 2>>"$TMP/chrome.err"
}
chrome --dump-dom "file://$P" >"$TMP/dom.html"
for text in "Conditions" "What differs between these machines" "Figures furthest from" \
	"Skipped and failed" "Plots" "Figure 1. "; do
	grep -q "$text" "$TMP/dom.html" || { echo "# missing in the DOM: $text"; exit 1; }
done
pass $? "chromium --dump-dom: the page's sections are in the document"
chrome --window-size=1200,2000 --screenshot="$TMP/shot.png" "file://$P" >/dev/null
ink=$(python3 tests/report/pngink.py "$TMP/shot.png")
echo "# screenshot: $ink (inked pixels, total)"
echo "$ink" | awk '{ exit !($2 > 0 && $1 > $2 / 50) }'
pass $? "chromium screenshot is not blank (more than 2 % of it drawn)"
[ -s "$TMP/shot.png" ] || diag "$TMP/chrome.err"

# A two-run comparison at 1200 px with every <details> closed: how tall the
# page is and how wide its widest table box, measured by the browser itself
# (a script added to a copy of the page writes them into the title).
run "$TP_REPORT" --label=host,arm64 --html="$TMP/two" tests/data/report-host.log tests/data/serial-arm64-virt-quick.log
pass $rc "--html of two runs: exit 0"
sed 's|</body>|<script>var w=0;document.querySelectorAll("table").forEach(function(t){w=Math.max(w,t.getBoundingClientRect().right)});document.title="H "+document.documentElement.scrollHeight+" W "+Math.ceil(w)+" P "+document.documentElement.clientWidth</script></body>|' \
	"$TMP/two/index.html" > "$TMP/two/measure.html"
chrome --window-size=1200,1000 --dump-dom "file://$TMP/two/measure.html" > "$TMP/two.dom"
set -- $(sed -n 's|.*<title>H \([0-9]*\) W \([0-9]*\) P \([0-9]*\)</title>.*|\1 \2 \3|p' "$TMP/two.dom")
echo "# two runs at 1200 px, every <details> closed: ${1:-?} px tall, widest table ends at ${2:-?} of ${3:-?} px"
[ -n "${1:-}" ] && [ "$1" -le 12000 ]
pass $? "a comparison's page is at most 12 000 px tall with its plots and tables folded (${1:-?} px)"
[ -n "${2:-}" ] && [ "$2" -le "$3" ]
pass $? "no table reaches past the page's right edge (${2:-?} <= ${3:-?} px)"
grep -q '<td class="w-poor">[^<]*: poor' "$TMP/two/index.html" || grep -q '<td class="w-fair">' "$TMP/two/index.html"
pass $? "verdict words carry their colour's class"
run "$TP_REPORT" --html="$TMP/one" tests/data/report-host.log
! grep -q 'id="lineup"\|id="differences"\|href="#lineup"' "$TMP/one/index.html"
pass $? "one run: no line-up or differences section, nor a link to one"
done_testing
