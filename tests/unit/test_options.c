// SPDX-License-Identifier: MIT
/*
 * The option table: good values, a table of bad ones, the kernel command
 * line, and the probes' old spellings. A probe option's value is read where
 * the suite keeps it, its probe's store (probe_opt_value()).
 */
#include <string.h>

#include "stubjoint.h"
#include "tap.h"
#include "../../userland/options.h"
#include "../../userland/probe.h"
#include "../../userland/tsccal.h"

struct bad_case {
	const char *name, *value, *reason_has;
};

static const struct bad_case bad[] = {
	{ "profile", "fast", "not one of" },
	{ "profile", "", "not one of" },
	{ "after", "explode", "not one of" },
	{ "repeat", "-1", "out of range" },
	{ "repeat", "0", "out of range" },
	{ "repeat", "1000000", "out of range" },
	{ "repeat", "99999999999999999999999", "out of range" },
	{ "repeat", "3x", "not a number" },
	{ "repeat", "", "not a number" },
	{ "rounds", "0", "out of range" },
	{ "rounds", "51", "out of range" },
	{ "rounds", "99999999999999999999999", "out of range" },
	{ "rounds", "five", "not a number" },
	{ "rounds", "", "not a number" },
	{ "timeout", "-5", "out of range" },
	{ "hold", "-2", "out of range" },
	{ "itimer-us", "100,abc", "not a number" },
	{ "itimer-us", "0", "out of range" },
	{ "itimer-us", ",", "empty list" },
	{ "itimer-us", "100,,200", "empty list or list element" },
	{ "itimer-us", "100,", "empty list or list element" },
	{ "itimer-us", "1234567890123456789012345", "out of range" },
	{ "probes", "clocks,,tsc", "empty list or list element" },
	{ "probes", "a-name-longer-than-any-probe-has", "longer than" },
	{ "inject", "crash,", "empty list or list element" },
	{ "wakeup-us", "1", "out of range" },
	{ "wakeup-priority", "100", "out of range" },
	{ "yield-gnuplot", "maybe", "not a boolean" },
	/* an old spelling with a bad value: refused like the new one */
	{ "priority", "100", "out of range" },
	{ "gnuplot", "maybe", "not a boolean" },
	/* "itimer_us" is not "itimer-us": names are matched as written */
	{ "itimer_us", "100", "unknown option" },
	{ "nosuch", "1", "unknown option" },
	{ "probes", "", "empty list" },
	{ "tsc_hz", "12", "the stub's alone" },
	{ "variant", "a-very-long-variant-name-that-does-not-fit-at-all", "longer than" },
	/* the stub's own words: the stub's bounds (common/words.c), said here too */
	{ "calib_rounds", "33", "out of range 1..32" },
	{ "calib_ms", "0", "out of range 1..1000" },
	{ "tsc_early", "maybe", "not one of on|off" },
	{ "cpu_dma_latency", "-2", "out of range" },
	{ "cpu-dma-latency", "2000000001", "out of range" },
	/* the kernel's own words are not timeprobe.* options */
	{ "panic", "10", "unknown option" },
	{ "tsc_early_khz", "2000000", "unknown option" },
	{ "accel", "kvm:host,-arch-capabilities,a-cpu-model-name-far-too-long-to-keep", "longer than 63" },
};

/* The store of the probe option NAME (as the registry has it), or NULL. */
static void *probe_opt_value(const char *name)
{
	for (size_t k = 0; k < probe_count; k++)
		for (size_t i = 0; i < probe_table[k]->n_opts; i++)
			if (!strcmp(probe_table[k]->opts[i].w.name, name))
				return probe_table[k]->opts[i].store;
	return 0;
}

static int pint(const char *name)
{
	int *v = probe_opt_value(name);

	return v ? *v : -12345;
}

static struct int_list *plist(const char *name)
{
	static struct int_list none;
	struct int_list *v = probe_opt_value(name);

	return v ? v : &none;
}

/* Every probe option's value side by side in out (at most len bytes): compared
 * before and after a bad value. Returns the bytes written. */
static size_t probe_values(unsigned char *out, size_t len)
{
	size_t n = 0;

	for (size_t k = 0; k < probe_count; k++) {
		for (size_t i = 0; i < probe_table[k]->n_opts; i++) {
			const struct probe_opt *po = &probe_table[k]->opts[i];
			size_t sz = po->w.type == TP_WT_INTS ? sizeof(struct int_list) :
				    po->w.type == TP_WT_NAMES ? sizeof(struct name_list) : sizeof(int);

			if (n + sz > len)
				return n;
			memcpy(out + n, po->store, sz);
			n += sz;
		}
	}
	return n;
}

/* Old spellings (struct probe_opt .was): set the value, and a warning says the new name. */
static void test_old_spellings(void)
{
	struct options o;
	struct opt_errors errs = { 0 };

	options_defaults(&o);
	ok(!options_set(&o, "load", "3", &errs) && pint("itimer-load") == 3,
	   "old spelling load=3: itimer-load is 3");
	ok(errs.n == 1 && errs.e[0].taken && !strcmp(errs.e[0].name, "load") &&
		   !strcmp(errs.e[0].value, "3") && !strcmp(errs.e[0].reason, "load is now itimer-load"),
	   "old spelling: a warning, not an error (%s)", errs.n ? errs.e[0].reason : "-");
	errs.n = 0;
	ok(!options_set(&o, "itimer-load", "4", &errs) && pint("itimer-load") == 4 && errs.n == 0,
	   "the new spelling: no warning");

	options_defaults(&o);
	errs.n = 0;
	options_from_cmdline(&o, "timeprobe.calib-rounds=7 timeprobe.calib_rounds=9 timeprobe.gnuplot "
				 "timeprobe.priority=20 timeprobe.threads=2,3", &errs);
	is_int(pint("tsc-calib-rounds"), USER_CALIB_ROUNDS_DEFAULT,
	       "cmdline: calib-rounds is no longer tsc's old spelling (it collided with the stub's word)");
	ok(o.n_stub_words == 1 && !strcmp(o.stub_words[0].name, "calib_rounds") &&
		   !strcmp(o.stub_words[0].value, "9"),
	   "cmdline: calib-rounds and calib_rounds are one word, the stub's, the last one kept");
	ok(pint("yield-gnuplot") == 1 && pint("wakeup-priority") == 20 && plist("yield-threads")->n == 2,
	   "cmdline: a bare old boolean, an old number and an old list are set");
	ok(errs.n == 3 && errs.e[0].taken && errs.e[2].taken &&
		   !strcmp(errs.e[0].reason, "gnuplot is now yield-gnuplot") && !strcmp(errs.e[0].value, "1"),
	   "cmdline: one warning per old spelling (%zu: %s)", errs.n, errs.n ? errs.e[0].reason : "-");
	errs.n = 0;
	ok(options_set(&o, "tsc-calib-round", "3", &errs) && errs.n == 1 &&
		   !strcmp(errs.e[0].reason, "unknown option; did you mean tsc-calib-rounds?"),
	   "tsc-calib-round: the option meant named (%s)", errs.n ? errs.e[0].reason : "-");
	errs.n = 0;
	ok(options_set(&o, "wakeup_priority", "10", &errs) && errs.n == 1 &&
		   !strcmp(errs.e[0].reason, "unknown option; did you mean wakeup-priority?"),
	   "wakeup_priority: a near miss named (%s)", errs.n ? errs.e[0].reason : "-");
	errs.n = 0;
	ok(options_set(&o, "zzzzzz", "1", &errs) && errs.n == 1 && !strcmp(errs.e[0].reason, "unknown option"),
	   "a word near nothing: no suggestion (%s)", errs.n ? errs.e[0].reason : "-");
}

/* Linux's word rules (common/words.h), as the suite reads /proc/cmdline:
 * either spelling of a bare row, next_arg()'s quotes, nothing after "--". */
static void test_linux_rules(void)
{
	struct options o;
	struct opt_errors errs = { 0 };

	options_defaults(&o);
	options_from_cmdline(&o, "tsc-early-khz=1234567 \"timeprobe.profile=quick\" "
				 "timeprobe.probes=\"clocks,tsc\" \"--\" timeprobe.repeat=5 "
				 "tsc_early_khz=7", &errs);
	is_int(o.tsc_early_khz, 1234567, "tsc-early-khz= is Linux's tsc_early_khz= (parameq)");
	ok(o.quick == 1 && o.probes.n == 2 && !strcmp(o.probes.v[1], "tsc"),
	   "a quoted word and a quoted value, cut as next_arg() cuts them");
	ok(o.repeat == 1 && errs.n == 0, "nothing after a quoted \"--\" is read (%zu errors)", errs.n);
	options_defaults(&o);
	options_from_kernel(&o, "a\xc2\xa0tsc_early_khz=2000000 x", &errs);
	is_int(o.tsc_early_khz, 2000000, "a word after U+00A0 is a word (Linux's isspace)");
}

/* A prefix mistyped (issue 49): refused as the whole word, with the word meant;
 * Linux's own words and other programs' are not mistaken for one. */
static void test_prefix_typo(void)
{
	struct options o;
	struct opt_errors errs = { 0 };

	options_defaults(&o);
	options_from_cmdline(&o, "timeprob.profile=quick timeprobe_repeat=3 tmeprobe.probes=clocks "
				 "timeprobe.after=reboot", &errs);
	ok(o.quick == 0 && o.repeat == 1 && !o.probes.n && o.after == AFTER_REBOOT,
	   "three mistyped prefixes: nothing of them taken; the good word taken");
	ok(errs.n == 3 && errs.e[0].as_typed && !errs.e[0].taken &&
		   !strcmp(errs.e[0].name, "timeprob.profile") && !strcmp(errs.e[0].value, "quick") &&
		   !strcmp(errs.e[0].reason, "a mistyped prefix; did you mean timeprobe.profile?"),
	   "timeprob.profile=quick: refused as typed (%zu: %s)", errs.n, errs.n ? errs.e[0].reason : "-");
	ok(errs.n == 3 && !strcmp(errs.e[1].name, "timeprobe_repeat") &&
		   strstr(errs.e[1].reason, "did you mean timeprobe.repeat?") &&
		   !strcmp(errs.e[2].name, "tmeprobe.probes") &&
		   strstr(errs.e[2].reason, "did you mean timeprobe.probes?"),
	   "timeprobe_repeat, tmeprobe.probes: the words meant");

	options_defaults(&o);
	errs.n = 0;
	options_from_cmdline(&o, "timeprobe.profile=fast", &errs);
	ok(errs.n == 1 && !errs.e[0].as_typed && !strcmp(errs.e[0].name, "profile"),
	   "a right prefix's error is named without it, as before");
	/* Linux 6.1's kernel-parameters.txt words beginning with t, and near ones */
	options_defaults(&o);
	errs.n = 0;
	options_from_cmdline(&o, "tsc=reliable tp_printk tp_printk_stop_on_boot trace_options=x "
				 "trace_clock=global trace_buf_size=1M trace_event=sched threadirqs "
				 "tsx=off tsx_async_abort=off tsa=off tdfx=1 thermal.off=1 "
				 "torture.verbose_sleep_duration=1 tpm_suspend_pcr=1 "
				 "transparent_hugepage=never trusted.source=tpm tracepoint_printk "
				 "traceoff_on_warning topology=on time timer_migration=0 tboot_noforce "
				 "tcpmhash_entries=1 thash_entries=1 tp720=1 try_unsupported "
				 "systemd.unit=x init=/init quiet rdinit=/init", &errs);
	is_int(errs.n, 0, "Linux's own t* words and others: none taken for a typo");
}

/* Words only the stub writes: taken from its file alone (issue 37: a forged
 * seal, a user's or an SMBIOS string's tsc_hz was reported as the stub's). */
static void test_stub_owned(const struct options *d)
{
	struct options o = *d;
	struct opt_errors errs = { 0 };
	static struct stub_handoff st;
	static uint8_t a[65536];
	size_t n;

	options_from_cmdline(&o, "timeprobe.tsc_hz=1234567 quiet", &errs);
	through_stub_file(&(struct tp_stub_values){ .tsc_hz = 2596139133, .bootpart = "unknown" },
			  &st, &errs);
	ok(st.tsc_hz == 2596139133LL && st.have_bootpart && st.bootpart.kind == TP_BOOTPART_UNKNOWN,
	   "the stub's tsc_hz and bootpart from its file, not the user's");
	ok(errs.n == 1 && !strcmp(errs.e[0].name, "tsc_hz") && !strcmp(errs.e[0].value, "1234567") &&
		   strstr(errs.e[0].reason, "stub.tp1"),
	   "the user's tsc_hz=1234567 refused by name (%s)", errs.n ? errs.e[0].reason : "-");

	o = *d;
	errs.n = 0;
	options_from_cmdline(&o, "quiet timeprobe.tsc_hz=1234567 timeprobe.bootpart=gpt:0fc63daf-8483-"
				 "4772-8e79-3d69d8477de4 timeprobe.profile=quick "
				 "timeprobe.seal=2:0badf00d", &errs);
	ok(o.quick == 1 && errs.n == 3 && !strcmp(errs.e[0].name, "tsc_hz") &&
		   !strcmp(errs.e[1].name, "bootpart") &&
		   !strcmp(errs.e[2].name, "seal") && strstr(errs.e[2].reason, "retired"),
	   "no file: stub words and the retired seal refused (%zu errors), the user's kept", errs.n);

	o = *d;
	errs.n = 0;
	n = stub_archive(&(struct tp_stub_values){ .tsc_hz = 2596139133 }, a, sizeof(a));
	for (size_t i = 0; i + 10 < n; i++)
		if (!memcmp(a + i, "2596139133", 10))
			a[i] = '9';	/* a changed figure: its record's CRC no longer checks */
	suite_archive(a, n, &st, &errs);
	ok(!st.tsc_hz && errs.n == 2 && strstr(errs.e[0].reason, "CRC") &&
		   strstr(errs.e[1].reason, "no stub_handoff"),
	   "a figure changed in the file: its record refused, nothing taken (%s)",
	   errs.n ? errs.e[0].reason : "-");

	o = *d;
	errs.n = 0;
	stubfile_apply(&st, "junk\n", 5, &errs, 0, &(struct stubfile_report){ 0 });
	ok(!st.tsc_hz && st.found && errs.n == 2,
	   "a file of junk: an error for the line, one for no record");

	o = *d;
	errs.n = 0;
	options_from_launcher(&o, "timeprobe.tsc_hz=1234567 timeprobe.accel=tcg:max "
				  "timeprobe.profile=quick timeprobe.repeat=3", &errs);
	ok(!strcmp(o.accel, "tcg:max") && o.quick == 1 && o.repeat == 1 && errs.n == 2 &&
		   !strcmp(errs.e[0].name, "tsc_hz") && strstr(errs.e[0].reason, "launcher"),
	   "SMBIOS: the launcher's words taken, tsc_hz and repeat refused (%s)",
	   errs.n ? errs.e[0].reason : "-");

	o = *d;
	errs.n = 0;
	ok(options_set(&o, "bootpart", "unknown", &errs) == -1 && strstr(errs.e[0].reason, "stub.tp1"),
	   "a host's --bootpart is refused: no stub there");
}

int main(void)
{
	struct options o, d;
	struct opt_errors errs = { 0 };

	test_linux_rules();
	test_prefix_typo();
	options_defaults(&d);
	/* the defaults come from the rows' def fields (common/words.c, the probes' rows) */
	ok(d.repeat == 1 && d.rounds == 5 && d.hold_s == -1 && d.after == AFTER_POWEROFF && d.quick == 0 &&
		   d.save == SAVE_AUTO && !d.probes.n && !d.n_stub_words,
	   "defaults from the table");
	ok(pint("clocks-sweep") == -1 && pint("itimer-load") == -1 && pint("wakeup-priority") == -1 &&
		   pint("wakeup-cpu") == -1 && pint("noise-threshold-ns") == 1000 &&
		   pint("tsc-calib-rounds") == 5 && !plist("yield-threads")->n,
	   "defaults: in the probes' own stores, from their rows");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad_case *c = &bad[i];
		static unsigned char before[8192], after[8192];
		size_t nb = probe_values(before, sizeof(before));

		o = d;
		errs.n = 0;
		ok(options_set_from(&o, OPT_FROM_USER, c->name, c->value, &errs) == -1 && errs.n == 1 &&
			   !errs.e[0].taken && !strcmp(errs.e[0].name, c->name) &&
			   !strcmp(errs.e[0].value, c->value) && strstr(errs.e[0].reason, c->reason_has) &&
			   !memcmp(&o, &d, sizeof(o)) && probe_values(after, sizeof(after)) == nb &&
			   !memcmp(before, after, nb),
		   "bad %s=%s: reported (%s), default kept", c->name, c->value, errs.n ? errs.e[0].reason : "-");
	}

	o = d;
	errs.n = 0;
	ok(!options_set(&o, "profile", "quick", &errs) && o.quick == 1, "profile=quick");
	ok(!options_set(&o, "after", "reboot", &errs) && o.after == AFTER_REBOOT, "after=reboot");
	ok(!options_set(&o, "itimer-us", "10000,100", &errs) && plist("itimer-us")->n == 2 &&
		   plist("itimer-us")->v[0] == 10000 && plist("itimer-us")->v[1] == 100, "itimer-us list");
	ok(!options_set(&o, "probes", "clocks,itimer", &errs) && o.probes.n == 2 &&
		   !strcmp(o.probes.v[1], "itimer"), "probes list");
	ok(!options_set(&o, "yield-gnuplot", 0, &errs) && pint("yield-gnuplot") == 1,
	   "a boolean without value is on");
	ok(!options_set(&o, "clocks-sweep", "off", &errs) && pint("clocks-sweep") == 0, "boolean off");
	{
		static struct stub_handoff st;

		through_stub_file(&(struct tp_stub_values){ .tsc_hz = 2893012345 }, &st, &errs);
		ok(st.tsc_hz == 2893012345LL, "the stub's tsc_hz beyond int32");
	}
	is_int(errs.n, 0, "no errors for good values");
	ok(options_set(&o, "repeat", 0, &errs) == -1 && strstr(errs.e[0].reason, "needs a value"),
	   "a number without value is an error");

	/* The kernel command line: only timeprobe.* words, quotes, bad ones listed */
	options_defaults(&o);
	errs.n = 0;
	options_from_cmdline(&o,
			     "console=ttyS0,115200 timeprobe.profile=quick  initrd=\\EFI\\x timeprobe.repeat=3 "
			     "timeprobe.rounds=2 timeprobe.profile=fast timeprobe.bogus=1 \"timeprobe.probes=clocks,yield\" "
			     "quiet timeprobe.yield-gnuplot", &errs);
	{
		static struct stub_handoff st;
		struct tp_buf b;
		char partuuid[40];

		through_stub_file(&(struct tp_stub_values){
				  .bootpart = "gpt:0fc63daf-8483-4772-8e79-3d69d8477de4" }, &st, &errs);
		tp_buf_init(&b, partuuid, sizeof(partuuid));
		tp_bootpart_partuuid(&b, &st.bootpart);
		is_str(partuuid, "0fc63daf-8483-4772-8e79-3d69d8477de4", "cmdline: bootpart from the stub");
	}
	ok(o.quick == 1, "cmdline: profile=quick applied, later bad value did not undo it");
	is_int(o.repeat, 3, "cmdline: repeat");
	is_int(o.rounds, 2, "cmdline: rounds");
	is_int(o.probes.n, 2, "cmdline: quoted word");
	is_int(pint("yield-gnuplot"), 1, "cmdline: bare boolean");
	is_int(errs.n, 2, "cmdline: two bad options reported");
	is_str(errs.e[0].name, "profile", "cmdline: first error names the option");
	is_str(errs.e[0].value, "fast", "cmdline: and the value");
	is_str(errs.e[1].name, "bogus", "cmdline: unknown option named");

	test_stub_owned(&d);
	test_old_spellings();

	/* words the stub alone reads: accepted, kept as given for the run record */
	o = d;
	errs.n = 0;
	options_from_cmdline(&o, "timeprobe.calib_rounds=7 timeprobe.calib_ms=20 "
				 "timeprobe.tsc_early=off timeprobe.calib_rounds=8 timeprobe.accel=kvm:host",
			     &errs);
	is_int(errs.n, 0, "stub words: no error record");
	is_int(o.n_stub_words, 3, "stub words: three kept, a repeated one once");
	is_str(o.stub_words[0].name, "calib_rounds", "stub words: name");
	is_str(o.stub_words[0].value, "8", "stub words: the last value wins, as in the stub");
	is_str(o.stub_words[2].value, "off", "stub words: tsc_early");
	is_str(o.accel, "kvm:host", "accel from the launcher");

	/* a list longer than the old 511-character buffer: read whole, not cut */
	{
		char longlist[700] = "";

		for (int i = 0; i < 30; i++)
			strcat(longlist, i == 29 ? "0000000000000000077" : "0000000000000100000,");
		o = d;
		errs.n = 0;
		ok(!options_set(&o, "itimer-us", longlist, &errs) && plist("itimer-us")->n == 30 &&
			   plist("itimer-us")->v[29] == 77,
		   "a %zu-character list of 30 values: every value read", strlen(longlist));
		strcat(longlist, ",5,6,7");
		ok(options_set(&o, "itimer-us", longlist, &errs) == -1 && strstr(errs.e[0].reason, "more than"),
		   "33 values: reported");
	}

	/* defaults that depend on where the suite runs: resolved once, from the rows */
	options_defaults(&o);
	options_resolve(&o, OPT_ENV_HOST);
	ok(pint("clocks-sweep") == 0 && pint("wakeup-priority") == 0 && pint("itimer-load") == 0 &&
		   o.hold_s == 0,
	   "host: no sweep, no SCHED_FIFO, no load, no hold");
	options_defaults(&o);
	options_resolve(&o, OPT_ENV_APPLIANCE);
	ok(pint("clocks-sweep") == 1 && pint("wakeup-priority") == 90 && pint("itimer-load") == -1,
	   "appliance: sweep, priority 90, load left to the probe (0 and 2 x CPUs)");
	options_defaults(&o);
	errs.n = 0;
	options_set(&o, "wakeup-priority", "50", &errs);
	options_set(&o, "clocks-sweep", "off", &errs);
	options_set(&o, "hold", "7", &errs);
	options_resolve(&o, OPT_ENV_APPLIANCE);
	ok(pint("wakeup-priority") == 50 && pint("clocks-sweep") == 0 && o.hold_s == 7,
	   "values people set are kept");
	options_defaults(&o);
	is_int(o.cpu_dma_latency_us, -1, "cpu_dma_latency: none held unless asked for");
	errs.n = 0;
	ok(!options_set(&o, "cpu-dma-latency", "0", &errs) && o.cpu_dma_latency_us == 0,
	   "--cpu-dma-latency=0 (a host's dashed spelling of a contract word) sets it");
	options_defaults(&o);
	options_from_cmdline(&o, "quiet timeprobe.cpu_dma_latency=25", &errs);
	ok(errs.n == 0 && o.cpu_dma_latency_us == 25,
	   "timeprobe.cpu_dma_latency=25 on the kernel command line arrives in the suite's options");

	/* more errors than fit are counted up to the cap, never overflow */
	o = d;
	errs.n = 0;
	for (int i = 0; i < OPT_ERRORS_MAX + 10; i++)
		options_set(&o, "nosuch", "1", &errs);
	is_int(errs.n, OPT_ERRORS_MAX, "error list is capped");
	return tap_done();
}
