// SPDX-License-Identifier: MIT
/* The run's estimate and its progress lines; see progress.h. */
#include <inttypes.h>
#include <stdio.h>

#include "progress.h"
#include "sink.h"
#include "timeutil.h"

const char *progress_clock(char *buf, size_t n, int64_t ms)
{
	int64_t s = ms > 0 ? (ms + 500) / 1000 : 0;

	if (s >= 3600)
		snprintf(buf, n, "%" PRId64 ":%02d:%02d", s / 3600, (int)(s / 60 % 60), (int)(s % 60));
	else
		snprintf(buf, n, "%d:%02d", (int)(s / 60), (int)(s % 60));
	return buf;
}

int progress_format(char *buf, size_t n, int index, int total, const char *name,
		    int64_t elapsed_ms, int64_t expect_ms)
{
	char el[24], ex[24];

	return snprintf(buf, n, "[%d/%d] %s %s of ~%s", index, total, name,
			progress_clock(el, sizeof(el), elapsed_ms),
			progress_clock(ex, sizeof(ex), expect_ms));
}

int64_t progress_limit_ms(const struct probe *p, const struct probe_ctx *ctx)
{
	int scale = ctx->time_scale > 0 ? ctx->time_scale : 1;
	int64_t limit_ms = (int64_t)(ctx->quick ? p->limit_quick_s : p->limit_full_s) * 1000 * scale;
	int64_t asked = p->asked_ms ? p->asked_ms(ctx) : 0;

	/* a length the user asked past it (--wakeup-seconds): twice that */
	return 2 * asked > limit_ms ? 2 * asked : limit_ms;
}

int64_t progress_expect_ms(const struct probe *p, const struct probe_ctx *ctx)
{
	int64_t limit_ms = progress_limit_ms(p, ctx);
	int64_t ms = p->expect_ms ? p->expect_ms(ctx) : limit_ms / 4;

	return ms > limit_ms ? limit_ms : ms < 0 ? 0 : ms;
}

int64_t progress_total_ms(const struct probe *const *list, size_t n, int repeat,
			  const struct probe_ctx *ctx)
{
	int64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += progress_expect_ms(list[i], ctx);
	return sum * (repeat > 0 ? repeat : 1);
}

int64_t progress_next_ns(int64_t start_ns, int64_t last_ns, int inplace)
{
	int64_t every = (inplace ? PROGRESS_INPLACE_MS : PROGRESS_EVERY_MS) * NS_PER_MS;
	int64_t k = last_ns > start_ns ? (last_ns - start_ns) / every : 0;

	/* on the probe's own grid: a late tick does not push the next line later */
	return start_ns + (k + 1) * every;
}

void progress_announce(int probes, int steps, int64_t total_ms, int scale, const char *profile)
{
	char line[240], t[24], suffix[96], rounds[48] = "";

	snprintf(suffix, sizeof(suffix), " (an emulated CPU: each probe may take %d times its usual time limit)", scale);
	if (steps > probes)
		snprintf(rounds, sizeof(rounds), " in %d rounds", steps);
	snprintf(line, sizeof(line), "timeprobe: %d probe%s%s, profile %s, expected ~%s in all%s", probes,
		 probes == 1 ? "" : "s", rounds, profile, progress_clock(t, sizeof(t), total_ms),
		 scale > 1 ? suffix : "");
	sink_progress(line, 1);
}

void progress_start(struct progress *pg, int index, int total, const char *name,
		    int64_t expect_ms, int64_t now_ns)
{
	*pg = (struct progress){ index, total, name, now_ns, expect_ms, 0 };
	pg->next_ns = progress_next_ns(now_ns, now_ns, sink_progress_inplace());
}

void progress_tick(struct progress *pg, int64_t now_ns)
{
	char line[160];

	if (!pg->name || now_ns < pg->next_ns)
		return;
	progress_format(line, sizeof(line), pg->index, pg->total, pg->name,
			(now_ns - pg->start_ns) / NS_PER_MS, pg->expect_ms);
	sink_progress(line, 0);
	pg->next_ns = progress_next_ns(pg->start_ns, now_ns, sink_progress_inplace());
}

void progress_end(void)
{
	sink_progress_done();
}

void progress_finish(int64_t ran_ms, int64_t total_ms)
{
	char a[24], b[24];

	sink_human("timeprobe: the run took %s (expected ~%s)\n", progress_clock(a, sizeof(a), ran_ms),
		   progress_clock(b, sizeof(b), total_ms));
}
