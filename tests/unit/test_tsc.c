// SPDX-License-Identifier: MIT
/* Unit tests of probe tsc's pure parts: the stub's figure from ctx->stub, kernel log lines, ppm. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

#include "../../userland/kmsg.h"
#include "../../userland/options.h"
#include "../../userland/sink.h"
#include "../../userland/stubvals.h"
#include "../../userland/tsccal.h"
#include "../../userland/tscref.h"
#include "../../userland/probes/tsc.h"
#include "../../userland/probes/tsc_impl.h"
#include "tap.h"

/* The stub's figure as probe tsc takes it from ctx->stub: its calib records, its tsc_hz. */
static void test_stub_figures(void)
{
	int devnull = open("/dev/null", O_WRONLY);
	struct stub_handoff st = { .found = 1, .n_calib = 2,
				   .calib = { { "hpet", 2893012345, 1.5 }, { "pit", 2893010000, 3 } } };
	struct tsc_figures f = { 0 };

	sink_set_outputs(&devnull, 1, 1);	/* the records and the table said */
	tsc_stub_figures(&st, &f);
	ok(f.stub_hz == 2893012345 && f.stub_ref && !strcmp(f.stub_ref, "hpet"),
	   "no tsc_ref: the first measured reference's figure");
	snprintf(st.tsc_ref, sizeof(st.tsc_ref), "pit");
	f = (struct tsc_figures){ 0 };
	tsc_stub_figures(&st, &f);
	ok(f.stub_hz == 2893010000 && !strcmp(f.stub_ref, "pit"), "tsc_ref pit: the PIT's figure");
	st.tsc_hz = 2893011111;
	f = (struct tsc_figures){ 0 };
	tsc_stub_figures(&st, &f);
	ok(f.stub_hz == 2893011111 && !strcmp(f.stub_ref, "pit"),
	   "the stub's tsc_hz is the figure it chose, over its calib records");
	st = (struct stub_handoff){ 0 };
	f = (struct tsc_figures){ 0 };
	tsc_stub_figures(&st, &f);
	ok(!(f.stub_hz > 0), "no stub file: no stub figure");
	close(devnull);
}

static void test_kmsg(void)
{
	struct tsc_kmsg m;
	long long us;

	is_int(tsc_kmsg_parse("6,123,456789,-;tsc: Detected 2893.012 MHz processor", &m),
	       TSC_KMSG_FREQ, "kmsg: Detected ... processor is a figure");
	is_str(m.ref[0], "detected", "kmsg: ref detected");
	is_int(m.khz[0], 2893012, "kmsg: 2893.012 MHz -> 2893012 kHz");
	is_int(m.usec, 456789, "kmsg: /dev/kmsg time stamp");
	is_str(m.msg, "tsc: Detected 2893.012 MHz processor", "kmsg: prefix stripped");

	is_int(tsc_kmsg_parse("6,124,456800,c;tsc: Detected 2892.999 MHz TSC", &m), TSC_KMSG_FREQ,
	       "kmsg: Detected ... TSC (no newline in the kernel, flag c)");
	is_str(m.ref[0], "detected_tsc", "kmsg: ref detected_tsc");
	is_int(m.khz[0], 2892999, "kmsg: TSC kHz");

	is_int(tsc_kmsg_parse("<6>[    0.000263] tsc: Detected 2096.020 MHz processor", &m),
	       TSC_KMSG_FREQ, "kmsg: klogctl prefix");
	is_int(m.khz[0], 2096020, "kmsg: klogctl figure");
	is_int(m.usec, 263, "kmsg: klogctl time stamp");

	is_int(tsc_kmsg_parse(
		   "[    1.543210] tsc: Refined TSC clocksource calibration: 2893.011 MHz", &m),
	       TSC_KMSG_FREQ, "kmsg: Refined");
	is_str(m.ref[0], "refined", "kmsg: ref refined");
	is_int(m.khz[0], 2893011, "kmsg: refined kHz");
	is_int(m.usec, 1543210, "kmsg: dmesg time stamp");

	is_int(
	    tsc_kmsg_parse(
		"4,300,100000,-;tsc: PIT calibration deviates from PMTIMER: 2893012 2899100", &m),
	    TSC_KMSG_FREQ, "kmsg: PIT deviates gives two figures");
	is_int(m.nfreq, 2, "kmsg: two figures");
	ok(!strcmp(m.ref[0], "pit") && !strcmp(m.ref[1], "pmtimer"), "kmsg: pit and pmtimer");
	is_int(m.khz[1], 2899100, "kmsg: the reference's kHz");

	is_int(tsc_kmsg_parse("6,200,75066,-;tsc: Marking TSC unstable due to boot parameter", &m),
	       TSC_KMSG_UNSTABLE, "kmsg: unstable");
	is_str(m.reason, "boot parameter", "kmsg: unstable reason");
	is_int(tsc_kmsg_parse(
		   "6,201,9000000,-;tsc: Marking TSC unstable due to clocksource watchdog", &m),
	       TSC_KMSG_UNSTABLE, "kmsg: unstable by watchdog");
	is_int(tsc_kmsg_parse(
		   "4,202,9000001,-;clocksource: timekeeping watchdog on CPU1: Marking clocksource "
		   "'tsc' as unstable because the skew is too large:",
		   &m),
	       TSC_KMSG_UNSTABLE, "kmsg: clocksource watchdog on tsc");
	is_int(tsc_kmsg_parse(
		   "4,202,9000001,-;clocksource: timekeeping watchdog on CPU1: Marking clocksource "
		   "'hpet' as unstable because the skew is too large:",
		   &m),
	       TSC_KMSG_NONE, "kmsg: watchdog on another clocksource is not about the TSC");
	is_int(tsc_kmsg_parse("4,210,300000,-;Measured 123456 cycles TSC warp between CPUs, "
			      "turning off TSC clock.",
			      &m),
	       TSC_KMSG_WARP, "kmsg: tsc_sync warp");
	is_int(m.warp_ticks, 123456, "kmsg: warp ticks");

	is_int(tsc_kmsg_parse("6,10,5000,-;tsc: Fast TSC calibration using PIT", &m), TSC_KMSG_NOTE,
	       "kmsg: fast PIT note");
	is_int(tsc_kmsg_parse("6,11,5001,-;tsc: PIT calibration matches HPET. 1 loops", &m),
	       TSC_KMSG_NOTE, "kmsg: PIT matches HPET note");
	is_int(tsc_kmsg_parse("6,12,5002,-;clocksource: Switched to clocksource tsc", &m),
	       TSC_KMSG_NOTE, "kmsg: switched clocksource note");
	is_int(tsc_kmsg_parse("4,0,0,-;[Firmware Bug]: TSC doesn't count with P0 frequency!", &m),
	       TSC_KMSG_NOTE, "kmsg: firmware bug note");
	is_int(tsc_kmsg_parse("6,13,5003,-;tsc: Detected 2893.01 MHz processor", &m), TSC_KMSG_NOTE,
	       "kmsg: two decimals is not the kernel's format: a note, not a figure");
	is_int(tsc_kmsg_parse("6,15,6000,-;tsc: Detected 2893.012 MHz something else", &m),
	       TSC_KMSG_NOTE, "kmsg: Detected with another suffix is a note");
	is_int(m.nfreq, 0, "kmsg: ... and no figure");
	is_int(tsc_kmsg_parse("4,16,6001,-;tsc: PIT calibration deviates from HPET: 2893012 2893100",
			      &m),
	       TSC_KMSG_FREQ, "kmsg: PIT deviates from HPET");
	ok(m.nfreq == 2 && !strcmp(m.ref[1], "hpet") && m.khz[0] == 2893012,
	   "kmsg: pit and hpet figures");
	is_int(tsc_kmsg_parse("4,17,6002,-;tsc: PIT calibration deviates from HPET: garbled", &m),
	       TSC_KMSG_NOTE, "kmsg: a garbled deviation is a note");
	is_int(m.nfreq, 0, "kmsg: ... without figures");
	is_int(tsc_kmsg_parse("4,18,6003,-;clocksource: timekeeping watchdog on CPU0: tsc read-back "
			      "delay of 200000ns, clock-skew test skipped, marking unstable",
			      &m),
	       TSC_KMSG_UNSTABLE, "kmsg: watchdog read-back delay");
	is_str(m.reason, "clocksource watchdog: read-back delay", "kmsg: read-back reason");
	is_int(tsc_kmsg_parse("6,19,6004,-;tsc: Refined TSC clocksource calibration: 2893 MHz", &m),
	       TSC_KMSG_NOTE, "kmsg: a refined line without the kernel's format is a note");
	is_int(tsc_kmsg_parse("6,14,6000,-;virtio_net virtio2 eth0: link up", &m), TSC_KMSG_NONE,
	       "kmsg: unrelated");
	is_int(tsc_kmsg_parse(" SUBSYSTEM=cpu", &m), TSC_KMSG_NONE,
	       "kmsg: dictionary continuation");
	is_int(tsc_kmsg_parse("", &m), TSC_KMSG_NONE, "kmsg: empty line");
	is_int(tsc_kmsg_parse("6,1;", &m), TSC_KMSG_NONE, "kmsg: truncated prefix");
	is_str(kmsg_message("tsc: no prefix", &us), "tsc: no prefix",
	       "kmsg: a line without prefix is the message");
	is_int(us, -1, "kmsg: no time stamp");
}

static void test_ppm(void)
{
	double v[5] = {2000000100, 2000000000, 2000000300, 1999999900, 2000000050}, med;

	is_near(tsc_ppm_offset(2893012345.0, 2893010000.0), 2345.0 / 2893010000.0 * 1e6, 1e-9,
		"ppm: stub vs kernel");
	is_near(tsc_ppm_offset(1000001, 1000000), 1.0, 1e-9, "ppm: 1 in a million");
	is_near(tsc_ppm_offset(999999, 1000000), -1.0, 1e-9, "ppm: negative when below");
	ok(isnan(tsc_ppm_offset(0, 1000000)), "ppm: missing figure gives NaN (null in the record)");
	ok(isnan(tsc_ppm_offset(1000000, 0)), "ppm: missing base gives NaN");
	is_near(tsc_spread_ppm(v, 5, &med), 400.0 / 2000000050.0 * 1e6, 1e-9,
		"spread: (max - min) / median");
	is_near(med, 2000000050, 0, "spread: median");
	is_near(tsc_spread_ppm(v, 1, 0), 0, 0, "spread: one round has none");
}

/* tsc_early_khz= reaches the probe through the options (the contract's row);
 * returns the value, *nerr the error records, *err the last one ("name: reason"). */
static int64_t early_khz(const char *cmdline, int kernel_only, size_t *nerr, const char **err)
{
	static struct opt_errors errs;
	static char last[160];
	struct options o;

	memset(&errs, 0, sizeof(errs));
	options_defaults(&o);
	if (kernel_only)
		options_from_kernel(&o, cmdline, &errs);
	else
		options_from_cmdline(&o, cmdline, &errs);
	*nerr = errs.n;
	last[0] = 0;
	if (errs.n)
		snprintf(last, sizeof(last), "%s: %s", errs.e[errs.n - 1].name,
			 errs.e[errs.n - 1].reason);
	*err = last;
	return o.tsc_early_khz;
}

static void test_cmdline(void)
{
	size_t n;
	const char *err;

	is_int(early_khz("console=ttyS0 tsc_early_khz=2893012 quiet", 0, &n, &err), 2893012,
	       "cmdline: found");
	is_int(n, 0, "cmdline: found, no error");
	is_int(early_khz("console=ttyS0 quiet", 0, &n, &err), 0, "cmdline: absent is 0");
	is_int(early_khz("xtsc_early_khz=5 tsc_early_khz=abc", 0, &n, &err), 0,
	       "cmdline: bad value, no prefix match");
	ok(n == 1 && !strncmp(err, "tsc_early_khz: ", 15), "cmdline: a bad value is one error: %s", err);
	is_int(early_khz("tsc_early_khz=1000 \"tsc_early_khz=2000\"\n", 0, &n, &err), 2000,
	       "cmdline: last wins, quotes taken out");
	is_int(early_khz("tsc_early_khz=2000 tsc_early_khz=1", 0, &n, &err), 2000,
	       "cmdline: out of range keeps the one before");
	ok(n == 1 && !strncmp(err, "tsc_early_khz: out of range", 27), "cmdline: out of range said: %s", err);
	is_int(early_khz("timeprobe.tsc_early_khz=2000", 0, &n, &err), 0,
	       "cmdline: not a timeprobe.* option");
	ok(n == 1 && !strcmp(err, "tsc_early_khz: unknown option"), "cmdline: timeprobe.tsc_early_khz unknown");
	is_int(early_khz("timeprobe.probes=nosuch tsc_early_khz=3000", 1, &n, &err), 3000,
	       "kernel words: found");
	is_int(n, 0, "kernel words: timeprobe.* left alone");
}

/* The log is parsed once: every line about the TSC kept, the last of each kind wins. */
static void test_log(void)
{
	static const char text[] =
	    "6,1,48,-;tsc: Detected 2893.012 MHz processor\n"
	    "6,2,50,-;Memory: 1024K available\n"
	    " SUBSYSTEM=cpu\n"
	    "6,3,60,-;tsc: Detected 2893.100 MHz processor\n"
	    "4,4,70,-;tsc: Marking TSC unstable due to check_tsc_sync_source failed\n"
	    "6,5,900000,-;tsc: Refined TSC clocksource calibration: 2893.050 MHz\n";
	struct tsc_log log;
	struct tsc_figures f = {0};

	tsc_log_parse(&log, strdup(text));
	is_int(log.n, 4, "log: the four lines about the TSC kept, the others not");
	is_int(log.khz_detected, 2893100, "log: the later Detected line wins");
	is_int(log.khz_refined, 2893050, "log: the refined figure");
	ok(log.n == 4 && log.m[2].kind == TSC_KMSG_UNSTABLE && log.m[3].usec == 900000,
	   "log: kept in log order, with their time stamps");
	tsc_kernel_final(&log, &f);
	is_near(f.kernel_hz, 2893050000.0, 0, "log: the kernel's final word is the refined one");
	is_str(f.kernel_ref, "refined", "log: and says so");
	tsc_log_free(&log);
	tsc_log_parse(&log, 0);
	ok(log.n == 0 && !log.khz_detected && !log.text, "log: none read, nothing kept");
	tsc_log_free(&log);
}

static void test_user_calib(void)
{
	/*
	 * Five rounds, one failed (0 Hz, a clock that did not move) and one
	 * NaN: left out and counted. Good ones {1000, 1002, 999} sorted
	 * 999 1000 1002: median 1000, spread (1002 - 999) / 1000 = 3000 ppm.
	 */
	double v[] = { 1000, 0, 1002, NAN, 999 };
	double none[] = { 0, -5 };
	double one[] = { 2e9 };
	struct user_calib c;

	tsccal_reduce(v, 5, &c);
	is_int(c.rounds, 5, "user calib: 5 rounds run");
	is_int(c.failed, 2, "user calib: the 0 Hz and the NaN round failed");
	is_near(c.hz, 1000, 1e-9, "user calib: median of the 3 good rounds");
	is_near(c.spread_ppm, 3000, 1e-6, "user calib: spread over the good rounds only");
	ok(c.min_hz == 999 && c.max_hz == 1002, "user calib: min and max of the good rounds");
	tsccal_reduce(none, 2, &c);
	ok(c.hz == 0 && c.failed == 2 && c.spread_ppm == 0, "user calib: every round failed, no figure");
	tsccal_reduce(one, 1, &c);
	ok(c.hz == 2e9 && c.spread_ppm == 0 && c.failed == 0, "user calib: one good round, spread 0");
}

/* One definition (issue 52): the user figure is taken from another exactly
 * when tscref.c says CLOCK_MONOTONIC_RAW counts the TSC, including the
 * clocksources the probe's own list once missed (tsc-early, xen). */
static void test_derivation_agrees(void)
{
	static const char *const cs[] = { "tsc", "tsc-early", "kvm-clock", "xen",
		"hyperv_clocksource_tsc_page", "hpet", "acpi_pm", "pit", "jiffies" };
	const char *d[TSC_FIGS];
	struct tsc_deps_in in = { 0 };
	char why[320];
	int agree = 1;

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		struct tscref_run run = { cs[i], 0, 0 };
		int circular = tscref_counter_independent(&run, "CLOCK_MONOTONIC_RAW", why,
							  sizeof(why)) == 0;

		in.clocksource = cs[i];
		tsc_derivation(&in, d);
		if (circular != (d[TSC_FIG_USER] != 0)) {
			printf("# %s: tscref circular %d, derived %s\n", cs[i], circular,
			     d[TSC_FIG_USER] ? d[TSC_FIG_USER] : "(measured)");
			agree = 0;
		}
	}
	ok(agree, "derivation: the user figure is derived wherever tscref.c calls RAW circular");
	in.clocksource = "tsc-early";
	tsc_derivation(&in, d);
	is_str(d[TSC_FIG_USER], "kernel", "derivation: tsc-early, the TSC scaled by the kernel's figure");
	in.clocksource = "xen";
	tsc_derivation(&in, d);
	is_str(d[TSC_FIG_USER], "xen", "derivation: xen, the TSC scaled by the hypervisor's figure");
}

static void test_derivation(void)
{
	const char *d[TSC_FIGS];
	struct tsc_deps_in in = { 0 };

	/* bare metal, clocksource hpet: three measurements */
	in.clocksource = "hpet";
	tsc_derivation(&in, d);
	ok(!d[0] && !d[1] && !d[2], "derivation: hpet clocksource, all measured");
	ok(!tsc_by_construction(d, TSC_FIG_STUB, TSC_FIG_USER) &&
	   !tsc_by_construction(d, TSC_FIG_KERNEL, TSC_FIG_USER), "derivation: all pairs independent");
	/* the appliance: tsc_early_khz= and clocksource tsc: user -> kernel -> stub */
	in.kernel_is_early = 1;
	in.clocksource = "tsc";
	tsc_derivation(&in, d);
	ok(!d[0] && !strcmp(d[1], "stub") && !strcmp(d[2], "kernel"),
	   "derivation: kernel from stub, user from kernel");
	is_str(tsc_origin(d, TSC_FIG_USER), "stub", "derivation: the user figure's origin is the stub");
	ok(tsc_by_construction(d, TSC_FIG_STUB, TSC_FIG_USER) &&
	   tsc_by_construction(d, TSC_FIG_STUB, TSC_FIG_KERNEL),
	   "derivation: every pair agrees by construction");
	/* issue 50, H3: tsc_early_khz= a person typed (not the stub's value): judged */
	in.early_is_user = 1;
	tsc_derivation(&in, d);
	ok(!strcmp(d[1], "typed") && !tsc_by_construction(d, TSC_FIG_STUB, TSC_FIG_KERNEL),
	   "derivation: a typed tsc_early_khz=: stub vs kernel independent, so judged");
	is_str(tsc_origin(d, TSC_FIG_USER), "typed", "derivation: the user figure's origin is the typed one");
	in.early_is_user = 0;
	ok(!tscref_early_is_user(2445426, 2445426059) && tscref_early_is_user(1234567, 2445426059) &&
	   tscref_early_is_user(1234567, 0) && !tscref_early_is_user(0, 2445426059),
	   "tscref_early_is_user: by value against the stub's figure, not by the word's presence");
	/* a KVM guest with kvm-clock: kernel and user both from the host */
	in.kernel_is_early = 0;
	in.kvm_clock = 1;
	in.clocksource = "kvm-clock";
	tsc_derivation(&in, d);
	is_str(tsc_origin(d, TSC_FIG_KERNEL), "kvm-clock", "derivation: kvm-clock kernel figure");
	ok(tsc_by_construction(d, TSC_FIG_KERNEL, TSC_FIG_USER), "derivation: kernel vs user by construction");
	ok(!tsc_by_construction(d, TSC_FIG_STUB, TSC_FIG_USER), "derivation: stub vs user independent");
	/* kvm-clock registered but clocksource tsc: user from kernel from host */
	in.clocksource = "tsc";
	tsc_derivation(&in, d);
	is_str(tsc_origin(d, TSC_FIG_USER), "kvm-clock", "derivation: user -> kernel -> kvm-clock");
	in.clocksource = 0;
	in.kvm_clock = 0;
	tsc_derivation(&in, d);
	ok(!d[2], "derivation: no clocksource known, user measured");
}

int main(void)
{
	test_user_calib();
	test_derivation();
	test_derivation_agrees();
	test_stub_figures();
	test_kmsg();
	test_ppm();
	test_cmdline();
	test_log();
	return tap_done();
}
