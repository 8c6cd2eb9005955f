// SPDX-License-Identifier: MIT
/* busy.c: /proc/stat's busy time, and other work as a share of the CPUs. */
#include <string.h>

#include "tap.h"
#include "../../userland/busy.h"

int main(void)
{
	struct busy_mark a = { .wall_ns = 0, .machine_busy_ns = 0, .own_cpu_ns = 0 };
	struct busy_mark b = { .wall_ns = 2000000000, .machine_busy_ns = 3000000000LL,
			       .own_cpu_ns = 1000000000 };

	/* user nice system idle iowait irq softirq steal: idle and iowait left out */
	is_int(busy_stat_ns("cpu  100 2 30 5000 70 4 5 6 0 0", 100), (100 + 2 + 30 + 4 + 5 + 6) * 10000000LL,
	       "stat: user+nice+system+irq+softirq+steal, ticks to ns at 100 Hz");
	is_int(busy_stat_ns("cpu  100 2 30 5000", 100), 132 * 10000000LL, "stat: an old kernel's four fields");
	is_int(busy_stat_ns("cpu0 100 2 30 5000", 100), -1, "stat: a per-CPU line is not the total");
	is_int(busy_stat_ns("cpu  100 2", 100), -1, "stat: too few fields");
	is_int(busy_stat_ns("cpu  100 2 30 5000", 0), -1, "stat: no tick rate");

	/* 2 s on 2 CPUs; the machine was busy 3 s, 1 s of it the suite's */
	is_int(busy_other_ns(&a, &b), 2000000000LL, "other: busy time less the suite's own");
	ok(busy_other_pct(&a, &b, 2) > 49.999 && busy_other_pct(&a, &b, 2) < 50.001,
	   "other: 2 CPU-s of 4 available is 50 %%");
	b.own_cpu_ns = 4000000000LL;
	is_int(busy_other_ns(&a, &b), 0, "other: never below 0 (tick-granular /proc/stat)");
	b.machine_busy_ns = -1;
	ok(busy_other_ns(&a, &b) == -1 && busy_other_pct(&a, &b, 2) < 0, "other: unknown when /proc/stat was not");
	return tap_done();
}
