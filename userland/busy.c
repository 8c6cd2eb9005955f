// SPDX-License-Identifier: MIT
/* How busy the machine was with other work; see busy.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "busy.h"
#include "sysinfo.h"
#include "timeutil.h"

int64_t busy_stat_ns(const char *line, long clk_tck)
{
	/* proc(5): user nice system idle iowait irq softirq steal (guest time is in user) */
	unsigned long long v[8] = { 0 };
	int n;

	if (clk_tck <= 0 || strncmp(line, "cpu ", 4))
		return -1;
	n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -1;
	return (int64_t)((v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * (1000000000ULL / (unsigned long long)clk_tck));
}

static int64_t own_cpu_ns(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return tv_ns(&self.ru_utime) + tv_ns(&self.ru_stime) + tv_ns(&kids.ru_utime) + tv_ns(&kids.ru_stime);
}

void busy_mark(struct busy_mark *m)
{
	char line[512];

	m->load[0] = m->load[1] = m->load[2] = -1;
	if (sysinfo_read_text("/proc/loadavg", line, sizeof(line)) > 0)
		sscanf(line, "%lf %lf %lf", &m->load[0], &m->load[1], &m->load[2]);
	m->machine_busy_ns = sysinfo_read_text("/proc/stat", line, sizeof(line)) > 0 ?
			     busy_stat_ns(line, sysconf(_SC_CLK_TCK)) : -1;
	m->own_cpu_ns = own_cpu_ns();
	m->wall_ns = now_ns(CLOCK_MONOTONIC);
}

int64_t busy_other_ns(const struct busy_mark *a, const struct busy_mark *b)
{
	int64_t other;

	if (a->machine_busy_ns < 0 || b->machine_busy_ns < 0)
		return -1;
	other = (b->machine_busy_ns - a->machine_busy_ns) - (b->own_cpu_ns - a->own_cpu_ns);
	return other > 0 ? other : 0;	/* tick-granular /proc/stat can trail rusage */
}

double busy_other_pct(const struct busy_mark *a, const struct busy_mark *b, int ncpu)
{
	int64_t other = busy_other_ns(a, b), wall = b->wall_ns - a->wall_ns;

	if (other < 0 || wall <= 0 || ncpu <= 0)
		return -1;
	return 100.0 * (double)other / ((double)wall * ncpu);
}
