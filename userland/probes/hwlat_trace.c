// SPDX-License-Identifier: MIT
/*
 * Probe `hwlat`: the kernel's hwlat tracer (kernel/trace/trace_hwlat.c,
 * Documentation/trace/hwlat_detector.rst) through tracefs, one CPU at a
 * time by tracing_cpumask; see hwlat_impl.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../sysinfo.h"
#include "../timeutil.h"
#include "hwlat_impl.h"

#define TRACEFS "/sys/kernel/tracing"

static char saved_mask[512], saved_thresh[32];

static int put(const char *file, const char *v)
{
	char path[128];
	int fd, rc = 0;
	size_t n = strlen(v);

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, v, n) != (ssize_t)n)
		rc = -errno;
	close(fd);
	return rc;
}

static int get(const char *file, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	return sysinfo_read_text(path, buf, len);
}

int hwlat_trace_open(int appliance, char *why, size_t len)
{
	char tracers[512];
	struct stat st;

	if (stat(TRACEFS "/available_tracers", &st) && appliance && stat(TRACEFS, &st) == 0)
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	if (get("available_tracers", tracers, sizeof(tracers)) <= 0) {
		snprintf(why, len, "no tracefs at " TRACEFS " (a kernel without CONFIG_TRACING, "
			 "tracefs not mounted, or not root): the kernel variant `hwlat` has it");
		return -1;
	}
	if (!sysinfo_word_in_list(tracers, "hwlat")) {
		snprintf(why, len, "tracefs lists no hwlat tracer (CONFIG_HWLAT_TRACER off; "
			 "the kernel variant `hwlat` has it)");
		return -1;
	}
	if (get("tracing_cpumask", saved_mask, sizeof(saved_mask)) <= 0 ||
	    get("tracing_thresh", saved_thresh, sizeof(saved_thresh)) <= 0 ||
	    put("current_tracer", "nop")) {
		snprintf(why, len, "tracefs: cannot read or set the tracer (%s)", strerror(errno));
		return -1;
	}
	return 0;
}

void hwlat_trace_close(void)
{
	put("tracing_on", "0");
	put("current_tracer", "nop");
	if (saved_mask[0])
		put("tracing_cpumask", saved_mask);
	if (saved_thresh[0])
		put("tracing_thresh", saved_thresh);
}

/* The hex mask tracing_cpumask takes, 32-bit groups separated by commas, high first. */
static void mask_of(int cpu, char *buf, size_t len)
{
	int groups = cpu / 32 + 1;
	size_t at = 0;

	for (int g = groups - 1; g >= 0 && at < len; g--)
		at += (size_t)snprintf(buf + at, len - at, g == groups - 1 ? "%x" : ",%08x",
				       g == cpu / 32 ? 1u << (cpu % 32) : 0u);
}

static uint64_t field(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

int hwlat_trace_line(const char *line, struct hwlat_trace_cpu *out)
{
	const char *p = strstr(line, "inner/outer(us):");
	unsigned long long inner, outer;
	uint64_t big;

	if (!p || sscanf(p, "inner/outer(us): %llu/%llu", &inner, &outer) != 2)
		return 0;
	big = (inner > outer ? inner : outer) * 1000;
	out->samples_n++;
	out->max_ns = big > out->max_ns ? big : out->max_ns;
	out->gaps_n += strstr(p, "count:") ? field(p, "count:") : 1;
	out->nmi_n += field(p, "nmi-count:");
	return 1;
}

/* The events in `trace` into out. */
static int read_events(struct hwlat_trace_cpu *out)
{
	FILE *f = fopen(TRACEFS "/trace", "re");
	char line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			hwlat_trace_line(line, out);
	fclose(f);
	return 0;
}

int hwlat_trace_cpu(int cpu, int ms, int thresh_us, struct hwlat_trace_cpu *out, char *why,
		    size_t len)
{
	char mask[256], v[32];
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int64_t t0;
	int rc;

	memset(out, 0, sizeof(*out));
	mask_of(cpu, mask, sizeof(mask));
	snprintf(v, sizeof(v), "%d", thresh_us);
	if ((rc = put("tracing_on", "0")) || (rc = put("current_tracer", "nop")) ||
	    (rc = put("tracing_cpumask", mask)) || (rc = put("tracing_thresh", v)) ||
	    (rc = put("trace", "")) || (rc = put("current_tracer", "hwlat"))) {
		snprintf(why, len, "tracefs refused a setting for CPU %d: %s", cpu, strerror(-rc));
		return -1;
	}
	snprintf(v, sizeof(v), "%d", HWLAT_TRACE_WINDOW_US);
	put("hwlat_detector/window", v);
	snprintf(v, sizeof(v), "%d", HWLAT_TRACE_WIDTH_US);
	put("hwlat_detector/width", v);
	t0 = mono_ns();
	put("tracing_on", "1");
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	put("tracing_on", "0");
	out->ran_ms = (mono_ns() - t0) / 1000000;
	rc = read_events(out);
	put("current_tracer", "nop");
	if (rc) {
		snprintf(why, len, "tracefs: cannot read " TRACEFS "/trace: %s", strerror(-rc));
		return -1;
	}
	return 0;
}
