// SPDX-License-Identifier: MIT
/*
 * The whole hand-off on the host: a cmdline.txt and a set of calibration
 * results go through the stub's code (boot/cmdfile.c, boot/cmdline.c,
 * boot/devpath.c, common/stubfile.c) to a kernel line and the stub's file,
 * which the suite's code (userland/options.c, stubread.c, stubvals.c,
 * bootpart.c) reads back once into the probes' struct stub_handoff: every
 * field of it is checked. Every row of the contract (common/words.c) and the
 * examples in docs/stub.md are sent across; broken files must still give a
 * line that boots. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubjoint.h"
#include "tap.h"
#include "../../boot/cmdfile.h"
#include "../../boot/cmdline.h"
#include "../../boot/devpath.h"
#include "../../common/handoff.h"
#include "../../common/url.h"
#include "../../common/words.h"
#include "../../userland/options.h"
#include "../../userland/recread.h"
#include "../../userland/save.h"
#include "../../userland/skewopt.h"
#include "../../userland/stubvals.h"

/* The figures of docs/stub.md's example, as the stub's calibration gives them. */
static const struct {
	const char *ref;
	uint64_t hz;
	uint32_t spread_ppm;
} figures[] = {
	{ "hpet", 2096019976, 1 }, { "pmtimer", 2096021421, 6 },
	{ "pit", 2096022123, 1 }, { "stall", 2096332770, 74 },
};
static const char example_guid[] = "4e2c1a7b-3f5d-4c6e-9a8b-0123456789ab";

static char bootpart[64], firmware[TP_FW_WORD_MAX + 1];
/* The pre-OS pair of docs/stub.md's example: BSP APIC 0, one AP, no TSC_ADJUST. */
static const struct tp_sc_pair pair_example = {
	.apic = 1, .lo_ticks = -161, .hi_ticks = 214, .rtt_ticks = 375, .samples = 2104,
	.consistent = 1,
};
/* A pre-OS scan on two CPUs: the BSP with three gaps, an AP that did not report. */
static const struct tp_sc_cpu scan_example[2] = {
	{ .apic = 0, .reported = 1, .coverage_ppm = 999981, .count = 3, .max_ns = 12005,
	  .total_ns = 15200, .smi_read = 0 },
	{ .apic = 1 },
};
/* The stub's other records of the example (make_records()), before its stub_handoff. */
static char records[8192];
/* The stub's milestones of a 2.096 GHz boot. */
static const struct tp_boot_tsc boot_tsc_example = {
	.entry = 2931000000, .calib_start = 2940000000, .calibrated = 4101000000,
	.scan_start = 4200000000, .scanned = 6300000000, .handover = 6320000000,
};
static char boot_tsc_word[TP_BOOT_TSC_WORD_MAX + 1];
/* OVMF's FirmwareVendor; test_firmware() sends harder ones */
static const uint16_t fw_vendor[] = { 'E', 'D', 'K', ' ', 'I', 'I', 0 };
static const char fw_vendor_utf8[] = "EDK II";
static const struct tp_cmdline_extras extras = { .tsc_hz = 2096019976 };
static struct tp_stub_values vals = { .tsc_hz = 2096019976, .tsc_ref = "hpet" };
static const struct tp_cmdline_env disk = { .initrd_file = 1, .serial = 1 };

static struct tp_rec rec;

static void put_rec(size_t *n)
{
	const char *line = tp_rec_finish(&rec);

	if (line && *n + rec.len < sizeof(records)) {
		memcpy(records + *n, line, rec.len);
		*n += rec.len;
		records[*n] = 0;
	}
}

/*
 * The example's other records as the stub writes them (boot/console.c,
 * boot/tsc.c, boot/mp.c, boot/hwlatrec.c, with common/stubfile.h's and
 * common/stubcpu.h's keys): a `calib` record per measured reference, a
 * nominal one and an absent one (neither is a measurement), the BSP, its
 * pair with AP 1, the two CPUs' scans and the scan's summary.
 */
static void make_records(void)
{
	static const struct tp_sc_adjust none = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		tp_rec_begin(&rec, TP_CALIB_REC);
		tp_rec_str(&rec, "source", "stub");
		tp_rec_str(&rec, TP_CALIB_REF, figures[i].ref);
		tp_rec_uint(&rec, TP_CALIB_HZ, figures[i].hz);
		tp_rec_uint(&rec, TP_CALIB_SPREAD, figures[i].spread_ppm);
		put_rec(&n);
	}
	tp_rec_begin(&rec, TP_CALIB_REC);
	tp_rec_str(&rec, TP_CALIB_REF, "cpuid16");
	tp_rec_uint(&rec, TP_CALIB_HZ, 2100000000);
	put_rec(&n);
	tp_rec_begin(&rec, TP_CALIB_REC);
	tp_rec_str(&rec, TP_CALIB_REF, "cpuid15");
	tp_rec_bool(&rec, TP_CALIB_ABSENT, 1);
	put_rec(&n);
	tp_rec_begin(&rec, TP_SC_TSCSYNC);
	tp_rec_str(&rec, TP_SC_WHAT, TP_SC_BSP);
	tp_rec_uint(&rec, TP_SC_APIC, 0);
	tp_sc_adjust_keys(&rec, &none);
	put_rec(&n);
	tp_rec_begin(&rec, TP_SC_TSCSYNC);
	tp_rec_str(&rec, TP_SC_WHAT, TP_SC_PAIR);
	tp_rec_uint(&rec, TP_SC_APIC "_a", 0);
	tp_rec_uint(&rec, TP_SC_APIC "_b", pair_example.apic);
	tp_sc_pair_keys(&rec, &pair_example);
	tp_sc_adjust_keys(&rec, &pair_example.adjust);
	put_rec(&n);
	for (size_t i = 0; i < 2; i++) {
		tp_rec_begin(&rec, TP_SC_HWLAT);
		tp_rec_str(&rec, TP_SC_WHAT, TP_SC_CPU);
		tp_sc_scan_keys(&rec, TP_SC_APIC, &scan_example[i]);
		put_rec(&n);
	}
	tp_rec_begin(&rec, TP_SC_HWLAT);
	tp_rec_str(&rec, TP_SC_WHAT, TP_SC_SUMMARY);
	tp_rec_bool(&rec, TP_SC_SCANNED, 1);
	tp_rec_uint(&rec, TP_SC_WINDOW, 1000);
	tp_rec_uint(&rec, TP_SC_THRESH, 1);
	tp_rec_uint(&rec, TP_SC_SYSTEM_WIDE, 0);
	tp_rec_uint(&rec, TP_SC_SYSTEM_WIDE_MAX, 0);
	put_rec(&n);
}

/* The values as the stub makes them: its formatters, its device path node. */
static void make_extras(void)
{
	struct tp_hd_node hd = { .part_number = 1, .sig_type = 2 };
	struct tp_buf b;

	ok(!tp_guid_parse(example_guid, 36, hd.signature), "the example's GUID parses");
	tp_buf_init(&b, bootpart, sizeof(bootpart));
	tp_bootpart_format(&b, &hd);
	tp_buf_init(&b, firmware, sizeof(firmware));
	tp_firmware_fmt(&b, fw_vendor, 0x10000, 0x20046);
	vals.bootpart = bootpart;
	vals.firmware = firmware;
	tp_buf_init(&b, boot_tsc_word, sizeof(boot_tsc_word));
	tp_boot_tsc_fmt(&b, &boot_tsc_example);
	vals.boot_tsc = boot_tsc_word;
	make_records();
}

/* The initrd= words the stub took from the last line stub_line() made. */
static char taken[TP_CMDLINE_MAX + 1];

/*
 * The stub's path: cmdline.txt bytes to the kernel's line (cmdbuild.c:
 * the check; initrd.c: the initrd= words taken and dropped; cmdbuild.c:
 * Linux's init limits, the final line).
 */
static const char *stub_line(const void *file, size_t n, const struct tp_cmdline_env *env,
			     struct tp_cmdline_final *f)
{
	static char user[TP_CMDLINE_MAX + 1], line[TP_CMDLINE_MAX + 1];
	struct tp_clean_report rep;
	struct tp_cmdline_env e = *env;
	struct tp_cmdline_final first;
	struct tp_init_cap cap;
	size_t pos = 0, vlen;
	const char *v;
	struct tp_buf b;

	tp_cmdline_clean(user, sizeof(user), file, n, &rep);
	e.user_empty = rep.len == 0;
	tp_cmdline_final(line, sizeof(line), user, &extras, &e, &first);
	tp_buf_init(&b, taken, sizeof(taken));
	while ((v = tp_cmdline_next(user, "initrd", &pos, &vlen)) && !e.drop_initrd) {
		if (!vlen)
			continue;
		tp_buf_puts(&b, b.len ? " initrd=" : "initrd=");
		tp_buf_putn(&b, v, vlen);
	}
	tp_cmdline_drop_substr(user, "initrd=");
	tp_cmdline_cap_init(user, &cap);
	e.initrd_file = 0;
	e.drop_initrd = 1;
	e.user_empty = 0;
	tp_cmdline_final(line, sizeof(line), user, &extras, &e, f);
	f->faults |= first.faults;
	f->fallback_kept = first.fallback_kept;
	return line;
}

/* The stub's figures as the suite read them, once (the probes' ctx->stub). */
static struct stub_handoff st;

/* The suite's path: the line to options, the stub's file to st; errors counted. */
static size_t suite_read(const char *line, struct options *o)
{
	struct opt_errors errs = { 0 };

	options_defaults(o);
	options_from_cmdline(o, line, &errs);
	through_stub_file_with(records, &vals, &st, &errs);
	for (size_t i = 0; i < errs.n; i++)
		printf("# error: %s=%s: %s\n", errs.e[i].name, errs.e[i].value, errs.e[i].reason);
	return errs.n;
}

static const char *stub_word(const struct options *o, const char *name)
{
	for (size_t i = 0; i < o->n_stub_words; i++)
		if (!strcmp(o->stub_words[i].name, name))
			return o->stub_words[i].value;
	return 0;
}

/* The indented block after the line that starts with lead, in docs/stub.md. */
static int doc_block(const char *lead, char *out, size_t cap, const char *sep)
{
	FILE *f = fopen("docs/stub.md", "r");
	char l[512];
	int in = 0, found = 0;
	size_t len = 0;

	out[0] = 0;
	while (f && fgets(l, sizeof(l), f)) {
		if (!in && !strncmp(l, lead, strlen(lead)))
			in = 1;
		else if (in && !strncmp(l, "    ", 4)) {
			l[strcspn(l, "\n")] = 0;
			len += snprintf(out + len, cap - len, "%s%s", found++ ? sep : "", l + 4);
		} else if (in && found)
			break;
	}
	if (f)
		fclose(f);
	return found;
}

static void check_firmware(const struct stub_handoff *s, const char *what)
{
	ok(s->have_firmware && s->firmware.revision == 0x10000 && s->firmware.uefi == 0x20046 &&
		   !strcmp(s->firmware.vendor, fw_vendor_utf8),
	   "%s: firmware arrives equal (%s)", what, s->firmware.vendor);
}

/* Every measured reference arrives with its figures, in order; nothing else. */
static void check_calib(const struct stub_handoff *s, const char *what)
{
	size_t good = 0;

	for (size_t i = 0; i < s->n_calib && i < sizeof(figures) / sizeof(figures[0]); i++)
		good += !strcmp(s->calib[i].ref, figures[i].ref) &&
			s->calib[i].hz == (int64_t)figures[i].hz &&
			s->calib[i].spread_ppm == figures[i].spread_ppm;
	ok(s->n_calib == 4 && good == 4,
	   "%s: every measured calib record arrives equal, the nominal and absent ones left (%zu of %zu)",
	   what, good, s->n_calib);
}

/* The BSP, its pair with AP 1, both CPUs' scans and the scan's plan arrive equal. */
static void check_cpus(const struct stub_handoff *s, const char *what)
{
	const struct stubcpus *c = s->cpus;
	const struct tp_sc_pair *p = c ? &c->preos.pair[0] : NULL;

	ok(c && c->preos.have_bsp && c->preos.bsp_apic == 0 && !c->preos.bsp_adjust.present &&
		   c->preos.n == 1 && p->apic == pair_example.apic &&
		   p->lo_ticks == pair_example.lo_ticks && p->hi_ticks == pair_example.hi_ticks &&
		   p->rtt_ticks == pair_example.rtt_ticks && p->samples == pair_example.samples &&
		   p->consistent == pair_example.consistent && !p->adjust.present,
	   "%s: the BSP and its pre-OS pair arrive equal", what);
	ok(c && c->scan.have_summary && c->scan.window_ms == 1000 && c->scan.thresh_us == 1 &&
		   c->scan.system_wide == 0 && c->scan.n == 2 &&
		   !memcmp(&c->scan.cpu[0], &scan_example[0], sizeof(scan_example[0])) &&
		   !memcmp(&c->scan.cpu[1], &scan_example[1], sizeof(scan_example[1])),
	   "%s: the pre-OS scan arrives equal, CPU by CPU", what);
}

/* Every field of the struct the probes read: the stub's figures, as it had them. */
static void check_figures(const struct stub_handoff *s, const char *what)
{
	struct options o;
	struct save_target t;
	uint8_t g[16];

	ok(s->found, "%s: the stub's file was read", what);
	is_int(s->tsc_hz, vals.tsc_hz, "tsc_hz arrives equal");
	is_str(s->tsc_ref, "hpet", "tsc_ref arrives equal");
	tp_guid_parse(example_guid, 36, g);
	ok(s->have_bootpart && s->bootpart.kind == TP_BOOTPART_GPT && !memcmp(s->bootpart.guid, g, 16),
	   "%s: bootpart arrives as the partition's GUID", what);
	options_defaults(&o);
	ok(!bootpart_save_where(&o, s, &t) && !strcmp(t.partuuid, example_guid),
	   "%s: the results go to that partition's PARTUUID (%s)", what, t.partuuid);
	check_firmware(s, what);
	ok(s->have_boot_tsc && !memcmp(&s->boot_tsc, &boot_tsc_example, sizeof(s->boot_tsc)),
	   "%s: boot_tsc arrives equal", what);
	check_calib(s, what);
	check_cpus(s, what);
}

static void test_docs_example(void)
{
	char file[1024], want[2048];
	struct tp_cmdline_final f;
	struct options o;
	const char *line;

	static uint8_t a[65536];
	char rec[4096];
	size_t n, len;
	const char *t;

	ok(doc_block("Example: this cmdline.txt", file, sizeof(file), "\n") &&
		   doc_block("HPET chosen at", want, sizeof(want), " ") &&
		   doc_block("(its `initrd=` served by the stub)", rec, sizeof(rec), ""),
	   "docs/stub.md has the example's three blocks");
	line = stub_line(file, strlen(file), &disk, &f);
	is_str(line, want, "docs/stub.md: the stub makes the documented line from the documented file");
	n = stub_archive(&vals, a, sizeof(a));
	t = tp_cpio_find(a, n, TP_STUB_FILE, &len);
	n = 0;
	for (size_t i = 0; t && i < len; i++)
		if (t[i] != '\n' && n + 1 < sizeof(file))
			file[n++] = t[i];
	file[n] = 0;
	is_str(file, rec, "docs/stub.md: the stub makes the documented stub_handoff record");
	is_int(f.faults, 0, "docs example: nothing wrong with it");
	is_int(suite_read(line, &o), 0, "docs example: the suite reads it without an error record");
	check_figures(&st, "docs example");
	ok(stub_word(&o, "calib_rounds") && !strcmp(stub_word(&o, "calib_rounds"), "7") &&
		   stub_word(&o, "calib_ms") && !strcmp(stub_word(&o, "calib_ms"), "20"),
	   "docs example: the stub's own words are listed for the run record");
	is_int(o.tsc_early_khz, 2096020, "tsc_early_khz is the stub's kHz, in the suite's options");
}

/* Values a row accepts: its bounds, its default, each choice, a sample text. */
static size_t samples(const struct tp_word *w, char v[][64])
{
	size_t n = 0;

	switch (w->type) {
	case TP_WT_INT:
		snprintf(v[n++], 64, "%lld", (long long)w->lo);
		snprintf(v[n++], 64, "%lld", (long long)w->hi);
		if (w->def > w->lo && w->def < w->hi)
			snprintf(v[n++], 64, "%lld", (long long)w->def);
		break;
	case TP_WT_BOOL:
		snprintf(v[n++], 64, "on");
		snprintf(v[n++], 64, "0");
		break;
	case TP_WT_CHOICE:
		for (const char *c = w->choices; c && *c && n < 8;) {
			size_t len = strcspn(c, "|");

			memcpy(v[n], c, len < 63 ? len : 63);
			v[n++][len < 63 ? len : 63] = 0;
			c += len + (c[len] == '|');
		}
		break;
	case TP_WT_INTS:
		snprintf(v[n++], 64, "%lld,%lld", (long long)w->lo, (long long)w->hi);
		break;
	case TP_WT_NAMES:
		snprintf(v[n++], 64, "clocks,tsc");
		break;
	case TP_WT_STR:
		/* a partition's identity (save_to), a URL (upload, push), or any text */
		snprintf(v[n++], 64, "%s", w->check == tp_bootpart_check ?
			 "gpt:0fc63daf-8483-4772-8e79-3d69d8477de4" :
			 w->check == tp_url_check ? "http://10.0.2.100:8080/results/" : "kvm:host");
		break;
	}
	return n;
}

/* Each word a person, the build or the launcher writes, through cmdline.txt. */
static void test_every_row(void)
{
	struct tp_cmdline_final f;
	struct options o, direct;
	char v[8][64], file[256], rest[TP_CMDLINE_MAX + 1];
	size_t checked = 0, arrived = 0;

	for (size_t i = 0; i < TPW_COUNT; i++) {
		const struct tp_word *w = &tp_words[i];
		size_t n = samples(w, v);

		if (w->flags & TP_WF_BARE || w->by == TP_BY_STUB)
			continue;	/* the stub's own results: test_stub_rows() */
		for (size_t k = 0; k < n; k++) {
			const char *line, *got;
			size_t vlen = 0;
			struct opt_errors errs = { 0 };
			int ok_here;

			snprintf(file, sizeof(file), "console=ttyS0 initrd=\\x\n" TP_WORD_PREFIX "%s=%s\n",
				 w->name, v[k]);
			line = stub_line(file, strlen(file), &disk, &f);
			snprintf(file, sizeof(file), TP_WORD_PREFIX "%s", w->name);
			got = tp_cmdline_find(line, file, &vlen);
			ok_here = got && vlen == strlen(v[k]) && !strncmp(got, v[k], vlen) && !f.faults;
			ok_here &= suite_read(line, &o) == 0;
			if (tp_word_stub_only(w)) {
				ok_here &= stub_word(&o, w->name) && !strcmp(stub_word(&o, w->name), v[k]);
			} else {
				/* the line without the word, then the value set directly */
				snprintf(rest, sizeof(rest), "%s", line);
				tp_cmdline_drop(rest, file);
				suite_read(rest, &direct);
				ok_here &= !options_set(&direct, w->name, v[k], &errs);
				ok_here &= !memcmp(&o, &direct, sizeof(o));
			}
			checked++;
			arrived += ok_here;
			if (!ok_here)
				printf("# %s=%s did not arrive equal\n", w->name, v[k]);
		}
	}
	ok(checked > 20 && arrived == checked,
	   "every row's values cross from cmdline.txt to the suite unchanged (%zu of %zu)",
	   arrived, checked);
}

/*
 * Each value the stub writes: the kernel's words on the line, the others in
 * its file and nowhere on the line; the suite reads them back.
 */
static void test_stub_rows(void)
{
	static uint8_t a[65536];
	struct tp_cmdline_final f;
	struct options o;
	struct rec_view r;
	size_t n = stub_archive(&vals, a, sizeof(a)), len = 0;
	const char *t = tp_cpio_find(a, n, TP_STUB_FILE, &len), *pos = t;
	const char *line = stub_line("console=ttyS0 initrd=\\x", 23, &disk, &f);

	ok(t && recread_next(&pos, t + len, &r) && recread_is(&r, "type", TP_STUB_HANDOFF),
	   "the stub's file holds its stub_handoff record, CRC and all");
	for (size_t i = 0; i < TPW_COUNT; i++) {
		const struct tp_word *w = &tp_words[i];
		char key[48], val[1024];
		const char *v, *reason;
		size_t vlen = 0;

		if (!(w->by & TP_BY_STUB))
			continue;
		snprintf(key, sizeof(key), "%s%s", w->flags & TP_WF_BARE ? "" : TP_WORD_PREFIX, w->name);
		v = tp_cmdline_find(line, key, &vlen);
		if (w->flags & TP_WF_BARE) {
			ok(v && tp_word_check(w, v, vlen, &reason) == TP_WE_OK,
			   "the stub writes %s on the line within the contract's bounds", key);
			continue;
		}
		val[0] = 0;
		for (pos = t; t && !val[0] && recread_next(&pos, t + len, &r);) {
			const char *raw = recread_raw(&r, w->name, &vlen);

			if (!recread_str(&r, w->name, val, sizeof(val)) && raw)
				snprintf(val, sizeof(val), "%.*s", (int)vlen, raw);
		}
		ok(!v && val[0] && tp_word_check(w, val, strlen(val), &reason) == TP_WE_OK,
		   "the stub writes %s in its file, within the contract's bounds, not on the line",
		   w->name);
	}
	is_int(suite_read(line, &o), 0, "the suite reads the stub's file without an error record");
	check_figures(&st, "stub's file");
}

/*
 * A cmdline.txt that forges the stub's figures, with and without an
 * overlong form that would end the kernel's line after them (issue 37):
 * the stub's own figures arrive from its file, each forged word is refused
 * by name, the word with the overlong form is gone, the kernel gets panic=.
 */
static void test_hostile_file(void)
{
	static const char file[] = "console=ttyS0 initrd=\\x timeprobe.tsc_hz=1234567\n"
				   "timeprobe.bootpart=unknown foo=\"bar";
	static const char overlong[] = "console=ttyS0 initrd=\\x timeprobe.tsc_hz=1234567 "
				       "timeprobe.firmware=0:0:SpoofBIOS timeprobe.seal=3:12345678 "
				       "x\xc0\x80";
	struct tp_cmdline_final f;
	struct opt_errors errs = { 0 };
	struct options o;
	const char *line = stub_line(file, sizeof(file) - 1, &disk, &f);
	size_t vlen;

	ok(tp_cmdline_find(line, "panic", &vlen) && tp_cmdline_find(line, "foo", &vlen) &&
		   vlen == 3, "a stray quote closed: foo=\"bar\" (value bar, as Linux cuts it) and panic= are words of their own");
	options_defaults(&o);
	options_from_cmdline(&o, line, &errs);
	through_stub_file_with(records, &vals, &st, &errs);
	check_figures(&st, "forged cmdline.txt");
	ok(errs.n == 2 && !strcmp(errs.e[0].name, "tsc_hz") && !strcmp(errs.e[0].value, "1234567") &&
		   !strcmp(errs.e[1].name, "bootpart"),
	   "the file's tsc_hz=1234567 and bootpart=unknown refused by name (%zu errors)", errs.n);

	line = stub_line(overlong, sizeof(overlong) - 1, &disk, &f);
	ok(!strstr(line, "x\xc0") && strstr(line, "panic=") && !strchr(line, '\n'),
	   "an overlong U+0000: its word dropped, the stub's words still on the line (%s)", line);
	errs.n = 0;
	options_defaults(&o);
	options_from_cmdline(&o, line, &errs);
	through_stub_file_with(records, &vals, &st, &errs);
	check_figures(&st, "forged seal");
	ok(errs.n == 3 && !strcmp(errs.e[0].name, "tsc_hz") && !strcmp(errs.e[1].name, "firmware") &&
		   !strcmp(errs.e[2].name, "seal"),
	   "the forged tsc_hz, firmware and seal each one error record (%zu)", errs.n);
}

/* Each format's formatter and parser agree, and the parser refuses junk. */
static void test_formats(void)
{
	struct tp_bootpart bp = { .kind = TP_BOOTPART_MBR, .mbr_sig = 0xbe1afdfa, .part = 1 }, back;
	uint8_t g[16], h[16];
	char text[80];
	struct tp_buf b;
	unsigned int seed = 7, same = 0;

	for (int k = 0; k < 100; k++) {
		for (int i = 0; i < 16; i++)
			g[i] = (uint8_t)rand_r(&seed);
		tp_buf_init(&b, text, sizeof(text));
		tp_fmt_guid(&b, g);
		same += !tp_guid_parse(text, b.len, h) && !memcmp(g, h, 16);
	}
	is_int(same, 100, "GUID text: 100 random GUIDs formatted and parsed back");
	ok(tp_guid_parse("4e2c1a7b-3f5d-4c6e-9a8b-0123456789aG", 36, g) &&
		   tp_guid_parse("4e2c1a7b+3f5d-4c6e-9a8b-0123456789ab", 36, g) &&
		   tp_guid_parse("4e2c1a7b-3f5d-4c6e-9a8b-0123456789a", 35, g), "GUID text: junk refused");
	tp_buf_init(&b, text, sizeof(text));
	tp_bootpart_fmt(&b, &bp);
	is_str(text, "mbr:be1afdfa:1", "bootpart: the MBR form");
	ok(!tp_bootpart_parse(text, b.len, &back) && back.kind == TP_BOOTPART_MBR &&
		   back.mbr_sig == bp.mbr_sig && back.part == 1, "bootpart: MBR parsed back");
	ok(tp_bootpart_parse("mbr:be1afdfa:256", 16, &back) && tp_bootpart_parse("usb:1", 5, &back) &&
		   tp_bootpart_parse("gpt:", 4, &back), "bootpart: junk refused");
}

/* timeprobe.firmware: the vendor's encoding and the parser's refusals. */
static void test_firmware(void)
{
	static const uint16_t long_vendor[] = {
		'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
		'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
		'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
		'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 0x20ac, 0
	};
	static const uint16_t ctl[] = { 'a', 0x1b, '[', '2', 'J', ' ', '%', ':', 0 };
	static const char *const bad[] = {
		"", "0001000:00020046:x", "00010000-00020046:x", "0001000g:00020046:x",
		"00010000:00020046:a b", "00010000:00020046:a%2", "00010000:00020046:a%zz",
		"00010000:00020046:%00", "00010000:00020046:a:b",
	};
	char out[TP_FW_WORD_MAX + 1];
	struct tp_firmware fw;
	struct tp_buf b;

	static const uint16_t quoted[] = { 'E', 'D', 'K', ' ', 'I', 'I', '"', 0xe9, 0 };

	tp_buf_init(&b, out, sizeof(out));
	tp_firmware_fmt(&b, quoted, 0x10000, 0x20046);
	is_str(out, "00010000:00020046:EDK%20II%22%c3%a9", "a quote and an accent, %-encoded UTF-8");
	ok(!tp_firmware_parse(out, strlen(out), &fw) && !strcmp(fw.vendor, "EDK II\"\xc3\xa9"),
	   "decoded back");
	tp_buf_init(&b, out, sizeof(out));
	tp_firmware_fmt(&b, ctl, 0xffffffffu, 0);
	is_str(out, "ffffffff:00000000:a%1b%5b2J%20%25%3a", "control characters and separators encoded");
	ok(!tp_firmware_parse(out, strlen(out), &fw) && !strcmp(fw.vendor, "a\x1b[2J %:"),
	   "and decoded back byte for byte");
	tp_buf_init(&b, out, sizeof(out));
	tp_firmware_fmt(&b, long_vendor, 1, 2);
	ok(!b.overflow && !tp_firmware_parse(out, strlen(out), &fw) && strlen(fw.vendor) == 63,
	   "a vendor past 64 bytes is cut before a whole character (%zu bytes)", strlen(fw.vendor));
	tp_buf_init(&b, out, sizeof(out));
	tp_firmware_fmt(&b, 0, 1, 2);
	ok(!tp_firmware_parse(out, strlen(out), &fw) && !fw.vendor[0], "no vendor: empty");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(tp_firmware_check(bad[i], strlen(bad[i])) != 0, "refused: \"%s\" (%s)", bad[i],
		   tp_firmware_check(bad[i], strlen(bad[i])));
	tp_buf_init(&b, out, sizeof(out));
	tp_fmt_uefi_revision(&b, 0x20046);
	is_str(out, "2.7", "UEFI revision 2.70 as text");
}

/* A `calib` record with one key's value (JSON text) in place of a good one's. */
static const char *calib_with(const char *key, const char *val)
{
	static char text[256];

	tp_rec_begin(&rec, TP_CALIB_REC);
	if (!strcmp(key, TP_CALIB_REF))
		tp_rec_number(&rec, TP_CALIB_REF, val);	/* a JSON string, as given */
	else
		tp_rec_str(&rec, TP_CALIB_REF, "hpet");
	tp_rec_number(&rec, TP_CALIB_HZ, !strcmp(key, TP_CALIB_HZ) ? val : "2096019976");
	tp_rec_number(&rec, TP_CALIB_SPREAD, !strcmp(key, TP_CALIB_SPREAD) ? val : "1");
	snprintf(text, sizeof(text), "%s", tp_rec_finish(&rec));
	return text;
}

/* Hostile calib records and stub_handoff values: an error record each, nothing kept. */
static void test_hostile_figures(void)
{
	static const struct { const char *key, *val, *why; } bad[] = {
		{ "ref", "\"HPET\"", "ref is not" }, { "ref", "\"averyveryverylongname\"", "ref is not" },
		{ "tsc_hz", "999999", "1000000..100000000000" },
		{ "tsc_hz", "2096019976.5", "1000000..100000000000" },
		{ "spread_ppm", "-1", "negative" },
	};
	static const struct tp_stub_values lies[] = {
		{ .tsc_hz = 999999 }, { .bootpart = "usb:1" }, { .boot_tsc = "5:4:6:7:8:9" },
		{ .firmware = "00010000:00020046:a b" }, { .tsc_ref = "HPET" },
	};
	struct opt_errors errs = { 0 };
	char two[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errs.n = 0;
		through_stub_file_with(calib_with(bad[i].key, bad[i].val), &vals, &st, &errs);
		ok(errs.n == 1 && st.n_calib == 0 && strstr(errs.e[0].reason, bad[i].why),
		   "a calib record with %s %s: refused, nothing kept (%s)", bad[i].key, bad[i].val,
		   errs.n ? errs.e[0].reason : "no error");
	}
	snprintf(two, sizeof(two), "%s%s", calib_with("", ""), calib_with("tsc_hz", "2096000000"));
	errs.n = 0;
	through_stub_file_with(two, &vals, &st, &errs);
	ok(errs.n == 1 && st.n_calib == 1 && st.calib[0].hz == 2096019976,
	   "a reference given twice: the first kept, the second refused");
	for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		errs.n = 0;
		through_stub_file(&lies[i], &st, &errs);
		ok(errs.n == 1 && !strncmp(errs.e[0].value, "stub_handoff ", 13) && !st.tsc_hz &&
			   !st.tsc_ref[0] && !st.have_bootpart && !st.have_boot_tsc && !st.have_firmware,
		   "a stub_handoff %s the row refuses: one error record, nothing kept (%s)",
		   errs.n ? errs.e[0].value : "value", errs.n ? errs.e[0].reason : "no error");
	}
	ok(!tp_boot_tsc_parse("1:1:2:3:5:8", 11, &(struct tp_boot_tsc){ 0 }) &&
		   tp_boot_tsc_parse("1:2:3", 5, &(struct tp_boot_tsc){ 0 }) &&
		   tp_boot_tsc_parse("1:2:3:4:5:x", 11, &(struct tp_boot_tsc){ 0 }),
	   "boot_tsc: six rising decimals and nothing else");
}

/* 1 when a row's default in words (its help text) is its default number. */
static int dflt_says_def(const struct tp_word *w)
{
	char s[24];

	snprintf(s, sizeof(s), "%lld", (long long)w->def);
	return !strcmp(s, w->dflt);
}

static void test_table(void)
{
	const struct tp_word *ms = &tp_words[TPW_CALIB_MS];
	char bounds[48];
	size_t bad = 0;

	/* The numbers come from TP_CALIB_* (words.h); the help's words are typed. */
	ok(dflt_says_def(&tp_words[TPW_CALIB_ROUNDS]), "calib_rounds: the help's default is %lld",
	   (long long)tp_words[TPW_CALIB_ROUNDS].def);
	snprintf(bounds, sizeof(bounds), "%lld..%lld ms", (long long)ms->lo, (long long)ms->hi);
	ok(dflt_says_def(ms) && !strcmp(ms->bounds, bounds),
	   "calib_ms: the help says default %lld, bounds %s", (long long)ms->def, bounds);
	for (size_t i = 0; i < TPW_COUNT; i++) {
		const struct tp_word *w = &tp_words[i];

		bad += !w->name || !w->help || !w->dflt || !w->by || !w->reader;
		for (size_t k = 0; k < i; k++)
			bad += !strcmp(w->name, tp_words[k].name);
		bad += tp_word_find(w->name, strlen(w->name)) != w;
	}
	is_int(bad, 0, "every row has a unique name, help, default, writer and reader");
}

/*
 * A line the kernel can boot: console=, within the limit, panic= a word of
 * its own, no initrd= anywhere (the stub serves the initramfs), and an
 * initrd= file taken by the stub when one is wanted (on a disk).
 */
static int bootable(const char *line, int want_initrd)
{
	size_t n;

	return tp_cmdline_find(line, "console", &n) && strlen(line) <= TP_CMDLINE_MAX &&
	       !strstr(line, "initrd=") && !!taken[0] == want_initrd &&
	       tp_cmdline_find(line, "panic", &n);
}

/* The built-in line, its initrd= taken by the stub. */
static int starts_with_default(const char *line)
{
	return !strncmp(line, TP_ARCH_CONSOLE " ", sizeof(TP_ARCH_CONSOLE)) &&
	       !strcmp(taken, "initrd=\\EFI\\timeprobe\\initramfs.img");
}

/* UTF-16 of an ASCII text, LE or BE, no BOM. */
static size_t utf16(char *out, const char *in, int be)
{
	size_t n = 0;

	for (; *in; in++) {
		out[n++] = be ? 0 : *in;
		out[n++] = be ? *in : 0;
	}
	return n;
}

static void test_broken_files(void)
{
	static const char good[] = "console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img "
				   "timeprobe.profile=quick\n";
	static char file[20000];
	struct tp_cmdline_final f;
	const char *line;
	size_t n;

	line = stub_line("", 0, &disk, &f);
	ok((f.faults & TP_CF_EMPTY) && starts_with_default(line) && bootable(line, 1),
	   "empty cmdline.txt: the built-in line (%.40s...)", line);
	line = stub_line("# nothing\n  # at all\n", 21, &disk, &f);
	ok((f.faults & TP_CF_EMPTY) && starts_with_default(line), "comments only: the built-in line");

	n = utf16(file, good, 0);
	line = stub_line(file, n, &disk, &f);
	ok(!f.faults && bootable(line, 1) && strstr(line, "timeprobe.profile=quick "),
	   "UTF-16LE without BOM: decoded, the user's line used");
	is_str(taken, "initrd=\\EFI\\timeprobe\\initramfs.img", "its initrd= taken by the stub");
	n = utf16(file, good, 1);
	line = stub_line(file, n, &disk, &f);
	ok(!f.faults && bootable(line, 1) && strstr(line, "timeprobe.profile=quick "),
	   "UTF-16BE without BOM: decoded, the user's line used");

	n = (size_t)snprintf(file, sizeof(file), "console=ttyS0,115200 timeprobe.x=");
	memset(file + n, 'y', 3000);
	n += 3000;
	n += (size_t)snprintf(file + n, sizeof(file) - n, " initrd=\\a timeprobe.repeat=2\n");
	line = stub_line(file, n, &disk, &f);
	ok(!f.faults && bootable(line, 1) && strstr(line, "timeprobe.repeat=2") &&
		   !strstr(line, "yyy"), "a 3000-byte word: dropped alone, the other words kept");

	/* 20 KB of words: the stub reads 16 KiB, the line holds 2047 bytes */
	for (n = 0; n + 6 < sizeof(file); n += 6)
		memcpy(file + n, "quiet ", 6);
	memcpy(file + n - 30, " console=ttyS0 initrd=\\a     ", 30);
	line = stub_line(file, TP_CMDLINE_FILE_MAX, &disk, &f);
	ok(f.faults == (TP_CF_NO_INITRD | TP_CF_NO_CONSOLE) && starts_with_default(line) &&
		   bootable(line, 1), "words past 16 KiB: no console=/initrd= left, the built-in line");

	n = (size_t)snprintf(file, sizeof(file), "console=ttyS0 timeprobe.profile=quick "
			     "timeprobe.repeat=999 timeprobe.bogus=1 timeprobe.tsc_hz=5 "
			     "timeprobe.calib_ms=20 quiet");
	line = stub_line(file, n, &disk, &f);
	ok(f.faults == TP_CF_NO_INITRD && f.fallback_kept == 2 && bootable(line, 1) &&
		   !strcmp(line, TP_ARCH_CONSOLE " timeprobe.profile=quick timeprobe.calib_ms=20 "
			   "panic=0 tsc_early_khz=2096020"),
	   "no initrd=: built-in line, the user's valid timeprobe.* words kept (%.110s)", line);

	line = stub_line("initrd=\\a quiet", 15, &disk, &f);
	is_int(f.faults, TP_CF_NO_CONSOLE, "no console= with a serial port: fallback");
	line = stub_line("initrd=\\a quiet", 15, &(struct tp_cmdline_env){ .initrd_file = 1 }, &f);
	ok(!f.faults && !strncmp(line, "quiet panic=0", 13) && !strcmp(taken, "initrd=\\a"),
	   "no console= without a serial port: the user's line");
	line = stub_line("", 0, &(struct tp_cmdline_env){ .serial = 1, .drop_initrd = 1 }, &f);
	ok((f.faults & TP_CF_EMPTY) && bootable(line, 0),
	   "single file, empty embedded line: built-in line without initrd=");
}

/*
 * Any file at all: random bytes, biased towards what breaks parsers (NUL,
 * newlines, quotes, '#', UTF-16-looking pairs, long runs). The line is
 * always within the limit, free of control characters, and bootable.
 */
static void test_any_file(void)
{
	static const char alphabet[] = "ab=,.:\"#\n\r\t \\x\0\xff\xfe\xc3";
	static char file[5000];
	struct tp_cmdline_final f;
	unsigned int seed = 12345, bad = 0, fell_back = 0;

	for (int round = 0; round < 3000; round++) {
		size_t n = (size_t)(rand_r(&seed) % (round % 10 ? 300 : 5000)), i = 0;
		const char *line;

		/* half of them start as a good file would */
		if (round % 4 < 2 && n > 30)
			i = (size_t)snprintf(file, sizeof(file), "console=ttyS0 initrd=\\a ");
		for (; i < n; i++) {
			unsigned int r = (unsigned int)rand_r(&seed);

			file[i] = (round & 1) && (i & 1) ? 0 :
				  r % 4 ? alphabet[r / 4 % (sizeof(alphabet) - 1)] : (char)(r >> 8);
		}
		line = stub_line(file, n, &disk, &f);
		fell_back += f.faults != 0;
		for (const char *c = line; *c; c++)
			bad += (unsigned char)*c < 0x20 || *c == 0x7f;
		bad += !bootable(line, 1);
	}
	is_int(bad, 0, "3000 random files: every line within the limit, no control byte, bootable, "
	       "no initrd=, panic= a word");
	printf("# %u of them fell back to the built-in line\n", fell_back);
}

/*
 * Two timeprobe.inject= words (issue 50, S6): the stub (stub.c's
 * inject_skew(): the line's word as tp_cmdline_find() gives it) and the
 * suite (options.c, skewopt.c) take the same skew, or none, from the line.
 */
static void test_two_injects(void)
{
	static const char *const files[] = {
		"timeprobe.inject=skew:hpet:100 timeprobe.inject=skew:pit:-50",
		"timeprobe.inject=skew:pit:50 timeprobe.inject=crash",
		"timeprobe.inject=skew:hpet:100,skew:pit:7 timeprobe.inject=hang,skew:pmtimer:3",
		"timeprobe.inject=skew:hpet:100 timeprobe.inject=skew:nosuch:5",
		"timeprobe.inject=crash timeprobe.inject=skew:stall:-9",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char file[256];
		struct tp_cmdline_final f;
		struct tp_skew stub = { 0 }, suite;
		struct opt_errors errs = { 0 };
		struct options o;
		const char *line, *v;
		size_t n;

		snprintf(file, sizeof(file), "console=ttyS0 initrd=\\x %s", files[i]);
		line = stub_line(file, strlen(file), &disk, &f);
		if ((v = tp_cmdline_find(line, TP_WORD_PREFIX "inject", &n)) != NULL)
			tp_skew_from_list(v, n, &stub);
		options_defaults(&o);
		options_from_cmdline(&o, line, &errs);
		skewopt_get(&o, &suite);
		ok(!strcmp(stub.ref, suite.ref) && (!stub.ref[0] || stub.ppm == suite.ppm),
		   "two inject words, '%s': the stub and the suite take the same skew (%s %d, %s %d)",
		   files[i], stub.ref, (int)stub.ppm, suite.ref, (int)suite.ppm);
	}
}

/* MPIDR_EL1 values as Linux logs them (MPIDR_HWID_BITMASK 0xff00ffffff). */
static void test_mpidr_pack(void)
{
	ok(tp_mpidr_pack(0x80000000ull) == 0, "mpidr: the U and RES1 bits are dropped (CPU 0)");
	ok(tp_mpidr_pack(0x81000101ull) == 0x101, "mpidr: MT dropped, Aff1.Aff0 kept");
	ok(tp_mpidr_pack(0x0000030201ull) == 0x030201, "mpidr: Aff2, Aff1, Aff0 in place");
	ok(tp_mpidr_pack(0xab00030201ull) == 0xab030201u, "mpidr: Aff3 packed above Aff2");
	ok(tp_mpidr_pack(0xff00ffffffull) == 0xffffffffu, "mpidr: every affinity bit kept");
}

int main(void)
{
	test_mpidr_pack();
	make_extras();
	test_table();
	test_formats();
	test_firmware();
	test_hostile_figures();
	test_two_injects();
	test_docs_example();
	test_every_row();
	test_stub_rows();
	test_hostile_file();
	test_broken_files();
	test_any_file();
	return tap_done();
}
