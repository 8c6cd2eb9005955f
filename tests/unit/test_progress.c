// SPDX-License-Identifier: MIT
/* The run's estimate and its progress lines (userland/progress.c), and where
 * the sink sends them: a plain line, an in-place line wiped before others. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/progress.h"
#include "../../userland/sink.h"
#include "../../userland/timeutil.h"

static int64_t two_s(const struct probe_ctx *ctx)
{
	return probe_expect(ctx, 2000, 0);
}

static int64_t windowed(const struct probe_ctx *ctx)
{
	return (ctx->quick ? 10000 : 300000) + probe_expect(ctx, 400, 1600);
}

static int64_t huge(const struct probe_ctx *ctx)
{
	(void)ctx;
	return 999999999;
}

static const struct probe p_two = { .name = "two", .limit_quick_s = 30, .limit_full_s = 60, .expect_ms = two_s };
static const struct probe p_win = { .name = "win", .limit_quick_s = 40, .limit_full_s = 420, .expect_ms = windowed };
static const struct probe p_none = { .name = "none", .limit_quick_s = 40, .limit_full_s = 40 };
static const struct probe p_huge = { .name = "huge", .limit_quick_s = 10, .limit_full_s = 10, .expect_ms = huge };
static const struct probe p_asked = { .name = "asked", .limit_quick_s = 10, .limit_full_s = 10,
				      .expect_ms = huge, .asked_ms = huge };

static void clocks(void)
{
	char b[32];

	is_str(progress_clock(b, sizeof(b), 0), "0:00", "0 ms");
	is_str(progress_clock(b, sizeof(b), 499), "0:00", "499 ms rounds down");
	is_str(progress_clock(b, sizeof(b), 500), "0:01", "500 ms rounds up");
	is_str(progress_clock(b, sizeof(b), 100000), "1:40", "100 s");
	is_str(progress_clock(b, sizeof(b), 3599499), "59:59", "just under an hour");
	is_str(progress_clock(b, sizeof(b), 3600000), "1:00:00", "an hour: h:mm:ss");
	is_str(progress_clock(b, sizeof(b), 90061000), "25:01:01", "a day and more");
	is_str(progress_clock(b, sizeof(b), -5), "0:00", "negative: 0");
}

static void lines(void)
{
	char b[64];
	int n = progress_format(b, sizeof(b), 4, 10, "drift", 100000, 300000);

	is_str(b, "[4/10] drift 1:40 of ~5:00", "the issue's example");
	is_int(n, (int)strlen(b), "its length");
	progress_format(b, 12, 4, 10, "drift", 100000, 300000);
	is_str(b, "[4/10] drif", "cut to the buffer");
}

static void estimates(void)
{
	struct probe_ctx q = { .quick = 1, .time_scale = 1 }, f = { .time_scale = 1 };
	struct probe_ctx qe = { .quick = 1, .time_scale = 4 };
	const struct probe *list[] = { &p_two, &p_win, &p_none };

	is_int(progress_expect_ms(&p_two, &q), 2000, "a probe's own figure");
	is_int(progress_expect_ms(&p_two, &qe), 8000, "emulated, not measured there: x time_scale");
	is_int(progress_expect_ms(&p_win, &qe), 11600, "emulated, measured there: its own figure");
	is_int(progress_expect_ms(&p_win, &f), 300400, "the full profile's window");
	is_int(progress_expect_ms(&p_none, &q), 10000, "none declared: a quarter of the limit");
	is_int(progress_expect_ms(&p_huge, &q), 10000, "never above the limit");
	is_int(progress_expect_ms(&p_huge, &qe), 40000, "the limit scaled as the suite scales it");
	is_int(progress_limit_ms(&p_huge, &q), 10000, "the limit: as declared");
	is_int(progress_limit_ms(&p_asked, &q), 2 * 999999999LL, "a length asked past it: twice that");
	is_int(progress_expect_ms(&p_asked, &q), 999999999, "and the estimate is the length asked");
	is_int(progress_total_ms(list, 3, 1, &q), 2000 + 10400 + 10000, "the run: the sum");
	is_int(progress_total_ms(list, 3, 3, &q), 3 * 22400, "repeat=3: three times");
	is_int(progress_total_ms(list, 0, 1, &q), 0, "no probes: 0");
}

static void schedule(void)
{
	int64_t t0 = 1000 * NS_PER_S;

	is_int(progress_next_ns(t0, t0, 0), t0 + 5 * NS_PER_S, "plain: the first line at 5 s");
	is_int(progress_next_ns(t0, t0 + 5 * NS_PER_S + 40 * NS_PER_MS, 0), t0 + 10 * NS_PER_S,
	       "a late line does not push the next one later");
	is_int(progress_next_ns(t0, t0 + 37 * NS_PER_S, 0), t0 + 40 * NS_PER_S, "after a stall: the next 5 s mark");
	is_int(progress_next_ns(t0, t0, 1), t0 + NS_PER_S, "in place: each second");
}

/* The elapsed seconds of a plain line "[k/n] name m:ss of ~m:ss"; -1 if none. */
static int line_s(const char *line)
{
	int m, s;
	const char *at = strstr(line, "] drift ");

	return at && sscanf(at, "] drift %d:%d of", &m, &s) == 2 ? m * 60 + s : -1;
}

/*
 * A 60 s drift on a console, driven as the supervisor drives it (its tick
 * at each next_ns the tick returns, and at the probe's end): its lines, as
 * stderr gets them, counted. Twelve lines, 0:05 to 1:00, none more than
 * 5 s after the one before it (or the start), so nothing of the run is
 * silent for longer (issue 51: 10 s were).
 */
static void drift_lines(void)
{
	int prog[2], lines = 0, last = 0, gap = 0;
	char buf[2048] = "", *line, *save;
	ssize_t n;
	struct progress pg;
	int64_t t = 0, end = 60 * NS_PER_S;

	if (pipe(prog)) {
		ok(0, "pipe");
		return;
	}
	sink_set_progress(prog[1], 0);
	progress_start(&pg, 4, 10, "drift", 60000, t);
	while (t < end) {
		t = pg.next_ns < end ? pg.next_ns : end;
		progress_tick(&pg, t);
	}
	progress_end();
	n = read(prog[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int s = line_s(line);

		lines++;
		gap = s - last > gap ? s - last : gap;
		last = s;
	}
	is_int(lines, 12, "a 60 s drift: 12 plain lines");
	is_int(gap, 5, "the longest gap between them (and from the start): 5 s");
	is_int(last, 60, "the last at 1:00");
	close(prog[0]), close(prog[1]);
}

/* The sink's side, through a pipe: what a terminal or stderr would get. */
static void routing(void)
{
	int out[2], prog[2];
	char buf[512] = "";
	ssize_t n;
	struct progress pg;

	if (pipe(out) || pipe(prog)) {
		ok(0, "pipes");
		return;
	}
	sink_set_outputs(&out[1], 1, 0);
	sink_set_output_kinds(out[1], SINK_HUMAN);
	sink_set_progress(prog[1], 1);
	progress_start(&pg, 2, 5, "drift", 10000, 0);
	progress_tick(&pg, NS_PER_S / 2);
	progress_tick(&pg, NS_PER_S);
	sink_human("a table line\n");
	sink_line("TP1 {\"type\":\"x\"} *00000000\n", 28);
	n = read(prog[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	is_str(buf, "\r[2/5] drift 0:01 of ~0:10\033[K\r\033[K", "in place: the line, wiped before the table line");
	n = read(out[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	is_str(buf, "a table line\n", "the human output: the table, not the record");

	sink_set_progress(prog[1], 0);
	progress_start(&pg, 1, 1, "noise", 20000, 0);
	progress_tick(&pg, 4 * NS_PER_S);
	progress_tick(&pg, 5 * NS_PER_S);
	progress_end();
	n = read(prog[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	is_str(buf, "[1/1] noise 0:05 of ~0:20\n", "plain: one line at 5 s, nothing to wipe");
	close(out[0]), close(out[1]), close(prog[0]), close(prog[1]);
}

int main(void)
{
	clocks();
	lines();
	estimates();
	schedule();
	routing();
	drift_lines();
	return tap_done();
}
