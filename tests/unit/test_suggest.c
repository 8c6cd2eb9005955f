// SPDX-License-Identifier: MIT
/* Near misses of names (userland/suggest.c): the distance, the rule, the sentence. */
#include <string.h>

#include "tap.h"
#include "../../userland/suggest.h"

static const char *const names[] = { "wakeup", "yield", "switch", "clocks", "tscsync", "tsc" };

static const char *name_at(size_t i, const void *ctx)
{
	return names[i];
}

static void suggests(const char *typed, const char *want)
{
	char out[96] = "no such probe";

	suggest_append(out, sizeof(out), typed, name_at, sizeof(names) / sizeof(names[0]), 0);
	is_str(out, want, typed);
}

int main(void)
{
	is_int(suggest_distance("wakup", "wakeup"), 1, "a letter left out: 1");
	is_int(suggest_distance("wkaeup", "wakeup"), 1, "two neighbours swapped: 1");
	is_int(suggest_distance("wakeup_cpu", "wakeup-cpu"), 0, "- and _ are one letter");
	is_int(suggest_distance("", "abc"), 3, "from nothing: its length");
	is_int(suggest_distance("kitten", "sitting"), 3, "kitten, sitting: 3");
	{
		char big[SUGGEST_MAX_LEN + 2];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = 0;
		is_int(suggest_distance(big, "a"), SUGGEST_FAR, "a name past the longest: far from all");
	}
	ok(suggest_near("priority", "wakeup-priority"), "priority: wakeup-priority, its probe's name left out");
	ok(!suggest_near("wakeup", "wakeup"), "a name is no near miss of itself");
	ok(!suggest_near("tsx", "tsc") == 0 && !suggest_near("abc", "tsc"),
	   "short names: one edit, not two");
	suggests("wakup", "no such probe; did you mean wakeup?");
	suggests("tscsyn", "no such probe; did you mean tscsync?");
	suggests("tsd", "no such probe; did you mean tsc?");
	suggests("memory", "no such probe");
	{
		char tiny[20] = "no such probe";

		suggest_append(tiny, sizeof(tiny), "wakup", name_at, 6, 0);
		is_str(tiny, "no such probe; did ", "a full buffer is cut, not overrun");
	}
	{
		static const struct {
			const char *name;
			int typo;
			size_t lead;
		} pre[] = {
			{ "timeprob.profile", 1, 9 }, { "timeprobe_profile", 1, 10 },
			{ "tmeprobe.probes", 1, 9 }, { "timeprobe-hold", 1, 10 },
			{ "time_probe.hold", 1, 11 }, { "timeprobe", 1, 9 },
			{ "timeprobe.profile", 0, 10 }, { "tsc_early_khz", 0, 4 },
			{ "tp_printk", 0, 3 }, { "threadirqs", 0, 10 }, { "trace_options", 0, 6 },
			{ "timer_migration", 0, 6 }, { "thermal.off", 0, 8 },
			{ "torture.verbose_sleep_duration", 0, 8 },
			{ "tprobe.x", 0, 7 },	/* 3 edits: not near */
		};

		for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
			size_t lead = 0;
			int t = suggest_prefix_typo(pre[i].name, strlen(pre[i].name), "timeprobe.", &lead);

			ok(t == pre[i].typo && lead == pre[i].lead, "%s: %s, lead %zu", pre[i].name,
			   t ? "a mistyped timeprobe." : "not one", lead);
		}
	}
	return tap_done();
}
