// SPDX-License-Identifier: MIT
/* The command-line contract's table and value checks; see words.h. Freestanding. */
#include "words.h"
#include "buf.h"
#include "handoff.h"
#include "hwlat.h"
#include "url.h"

#define USER TP_BY_USER
#define STUB TP_BY_STUB
#define BUILD TP_BY_BUILD
#define SUITE TP_FOR_SUITE

const struct tp_word tp_words[TPW_COUNT] = {
	/* probes and profile: a launcher may choose them too (SMBIOS OEM strings) */
	[TPW_PROBES] = {
		.name = "probes", .type = TP_WT_NAMES, .by = USER | TP_BY_LAUNCHER, .reader = SUITE,
		.dflt = "all", .bounds = "names from `timeprobe list`",
		.help = "probes to run, comma-separated",
	},
	[TPW_PROFILE] = {
		.name = "profile", .type = TP_WT_CHOICE, .by = USER | TP_BY_LAUNCHER, .reader = SUITE,
		.choices = "full|quick", .dflt = "full",
		.help = "quick: seconds per probe; full: stable figures",
	},
	[TPW_AFTER] = {
		.name = "after", .type = TP_WT_CHOICE, .by = USER, .reader = SUITE,
		.choices = "poweroff|reboot|halt", .dflt = "poweroff",
		.help = "what the appliance does at the end, always, even after failures",
	},
	[TPW_REPEAT] = {
		.name = "repeat", .type = TP_WT_INT, .by = USER, .reader = SUITE, .lo = 1,
		.hi = 100, .def = 1, .dflt = "1",
		.help = "run the suite N times in one boot; records carry `iteration`",
	},
	[TPW_ROUNDS] = {
		.name = "rounds", .type = TP_WT_INT, .by = USER, .reader = SUITE, .lo = 1,
		.hi = 50, .def = 5, .dflt = "5",
		.help = "split each probe's samples into N rounds, round 1 of every probe first; "
			"result records carry `round`, then the run's figure over all rounds",
	},
	[TPW_TIMEOUT] = {
		.name = "timeout", .type = TP_WT_INT, .by = USER, .reader = SUITE, .hi = 86400,
		.dflt = "0 (each probe's own)", .bounds = "0..86400 s",
		.help = "time limit per probe; a probe over it is killed with everything it started",
	},
	[TPW_WATCHDOG] = {
		.name = "watchdog", .type = TP_WT_INT, .by = USER, .reader = SUITE,
		.hi = 604800, .dflt = "0 (off)", .bounds = "0..604800 s",
		.help = "whole-run limit; then an `error` record and `after`",
	},
	[TPW_INJECT] = {
		.name = "inject", .type = TP_WT_NAMES, .by = USER, .reader = TP_FOR_STUB | SUITE,
		.dflt = "none", .bounds = "`crash`, `hang`, `exit`, `exit1`, `grandchild`, `flood`, "
		"`observers`, `rounds`, `skew:REF:PPM` (REF hpet, pmtimer, pit, stall)",
		.help = "add fault-injection probes that do exactly that; skew: read REF PPM fast "
			"in the stub's calibration and drift (docs/readiness.md)",
	},
	[TPW_SAVE] = {
		.name = "save", .type = TP_WT_CHOICE, .by = USER, .reader = SUITE,
		.choices = "auto|off", .dflt = "auto",
		.help = "save the records on the boot partition",
	},
	[TPW_SAVE_TO] = {
		.name = "save_to", .type = TP_WT_STR, .by = USER, .reader = SUITE, .hi = 79,
		.dflt = "the boot partition, when this image made it",
		.bounds = "`gpt:<PARTUUID>`, `mbr:<sig>:<n>`",
		.help = "save the records on this partition instead (see `lsblk -o NAME,PARTUUID`): "
			"an ISO, a network boot, a timeprobe.efi on another ESP",
		.check = tp_bootpart_check,
	},
	/* the network: docs/lab.md; refused here, before boot, when not http://HOST[:PORT]/PATH */
	[TPW_UPLOAD] = {
		.name = "upload", .type = TP_WT_STR, .by = USER, .reader = SUITE, .hi = TP_URL_MAX,
		.dflt = "none", .bounds = "`http://HOST[:PORT]/PATH`",
		.help = "after the run, PUT the results file to PATH/<machine id>/<NNNN>.tp1 "
			"(3 tries within 60 s; the `net` kernel's file, docs/lab.md)",
		.check = tp_url_check,
	},
	[TPW_PUSH] = {
		.name = "push", .type = TP_WT_STR, .by = USER, .reader = SUITE, .hi = TP_URL_MAX,
		.dflt = "none", .bounds = "`http://HOST[:PORT]`",
		.help = "after the run, PUT the headline figures as OpenMetrics to this Pushgateway's "
			"/metrics/job/timeprobe/instance/<machine id>",
		.check = tp_url_check,
	},
	[TPW_HOLD] = {
		.name = "hold", .type = TP_WT_INT, .by = USER, .reader = SUITE, .lo = -1,
		.hi = 3600, .def = -1, .dflt = "0 under QEMU, 30 on hardware",
		.bounds = "-1..3600 s",
		.help = "wait before `after`, to read the screen",
	},
	[TPW_LAVA] = {
		.name = "lava", .type = TP_WT_BOOL, .by = USER, .reader = SUITE, .hi = 1,
		.dflt = "off",
		.help = "also print `TPM CASE VALUE UNIT`, one line per headline figure, "
			"for a LAVA test monitor (docs/lava.md)",
	},
	/* Linux's PM QoS CPU latency limit (Documentation/power/pm_qos_interface.rst) */
	[TPW_CPU_DMA_LATENCY] = {
		.name = "cpu_dma_latency", .type = TP_WT_INT, .by = USER, .reader = SUITE,
		.lo = -1, .hi = 2000000000, .def = -1, .dflt = "-1 (none held)",
		.bounds = "-1..2000000000 us",
		.help = "hold `/dev/cpu_dma_latency` at this many us for the run, as cyclictest "
			"does (0: no idle state slower to leave); the `run` record says what was held",
	},

	/* Read by the stub alone (docs/stub.md, "Calibration"); the suite accepts
	 * them silently and lists them in its run record. */
	[TPW_CALIB_ROUNDS] = {
		.name = "calib_rounds", .type = TP_WT_INT, .by = USER, .reader = TP_FOR_STUB,
		.lo = 1, .hi = TP_CALIB_ROUNDS_MAX, .def = TP_CALIB_ROUNDS_DEFAULT, .dflt = "5",
		.help = "stub: calibration rounds per reference",
	},
	[TPW_CALIB_MS] = {
		.name = "calib_ms", .type = TP_WT_INT, .by = USER, .reader = TP_FOR_STUB,
		.lo = TP_CALIB_MS_MIN, .hi = TP_CALIB_MS_MAX, .def = TP_CALIB_MS_DEFAULT, .dflt = "50",
		.bounds = "1..1000 ms",
		.help = "stub: length of one calibration round",
	},
	[TPW_TSC_EARLY] = {
		.name = "tsc_early", .type = TP_WT_CHOICE, .by = USER, .reader = TP_FOR_STUB,
		.choices = "on|off", .dflt = "on",
		.help = "stub: `off` leaves `tsc_early_khz=` off the kernel command line",
	},
	/* docs/probes/hwlat.md; -1: the profile's (timeprobe.profile, read by the stub too) */
	[TPW_HWLAT_MS] = {
		.name = "hwlat_ms", .type = TP_WT_INT, .by = USER, .reader = TP_FOR_STUB,
		.lo = 0, .hi = TP_HWLAT_MS_MAX, .def = -1, .dflt = "1000 quick, 10000 full",
		.bounds = "0..600000 ms",
		.help = "stub: the pre-OS latency scan's window on every CPU; 0: no scan",
	},
	[TPW_HWLAT_THRESH_US] = {
		.name = "hwlat_thresh_us", .type = TP_WT_INT, .by = USER, .reader = TP_FOR_STUB,
		.lo = 1, .hi = TP_HWLAT_THRESH_US_MAX, .def = TP_HWLAT_THRESH_US_DEFAULT,
		.dflt = "1", .bounds = "1..1000 us",
		.help = "stub: a TSC step this long or longer is a gap in the pre-OS scan",
	},
	[TPW_HWLAT_STUCK] = {
		.name = "hwlat_stuck", .type = TP_WT_BOOL, .by = USER, .reader = TP_FOR_STUB,
		.dflt = "0",
		.help = "stub, a test: the last AP's scan procedure never returns; the scan must "
			"end at its time-out and name it",
	},

	/*
	 * Written by the stub, never on the command line: the keys of its
	 * stub_handoff record in its file (common/stubfile.h, docs/stub.md).
	 */
	[TPW_TSC_HZ] = {
		.name = "tsc_hz", .type = TP_WT_INT, .by = STUB, .reader = SUITE,
		.lo = TP_CALIB_HZ_MIN, .hi = TP_CALIB_HZ_MAX, .dflt = "none",
		.help = "TSC frequency the stub chose, in Hz",
	},
	[TPW_TSC_REF] = {
		.name = "tsc_ref", .type = TP_WT_STR, .by = STUB, .reader = SUITE,
		.hi = TP_CALIB_REF_MAX, .dflt = "none",
		.help = "reference the stub chose (hpet, pmtimer, pit, stall)",
		.check = tp_calib_ref_check,
	},
	[TPW_BOOTPART] = {
		.name = "bootpart", .type = TP_WT_STR, .by = STUB, .reader = SUITE, .hi = 79,
		.dflt = "none", .bounds = "`gpt:<guid>`, `mbr:<sig>:<n>`, `unknown`",
		.help = "the partition the stub was loaded from",
		.check = tp_bootpart_check,
	},
	[TPW_FIRMWARE] = {
		.name = "firmware", .type = TP_WT_STR, .by = STUB, .reader = SUITE,
		.hi = TP_FW_WORD_MAX, .dflt = "none",
		.bounds = "`<revision, 8 hex>:<UEFI revision, 8 hex>:<vendor, %-encoded>`",
		.help = "the firmware's vendor and revisions, from the UEFI system table",
		.check = tp_firmware_check,
	},
	[TPW_BOOT_TSC] = {
		.name = "boot_tsc", .type = TP_WT_STR, .by = STUB, .reader = SUITE,
		.hi = TP_BOOT_TSC_WORD_MAX, .dflt = "none",
		.bounds = "`<entry>:<calib_start>:<calibrated>:<scan_start>:<scanned>:<handover>`",
		.help = "the stub's TSC at its entry, around its calibration and scan, and at hand-over",
		.check = tp_boot_tsc_check,
	},
	[TPW_TSC_EARLY_KHZ] = {
		.name = "tsc_early_khz", .type = TP_WT_INT, .by = USER | STUB,
		.reader = TP_FOR_KERNEL | SUITE, .flags = TP_WF_BARE, .lo = 1000,
		.hi = 100000000, .dflt = "the stub's tsc_hz / 1000",
		.help = "Linux: TSC frequency in kHz, instead of its own early calibration",
	},
	[TPW_PANIC] = {
		.name = "panic", .type = TP_WT_INT, .by = USER | STUB, .reader = TP_FOR_KERNEL,
		.flags = TP_WF_BARE, .lo = -2147483647 - 1, .hi = 2147483647, .def = 0,
		.dflt = "0 (the stub's: no reboot)",
		.help = "Linux: seconds until a reboot after a panic; 0 stays with the panic on screen, "
			"so a machine that panics does not reboot into it again",
	},

	/* Linux's own words that the stub checks (docs/stub.md, "Checked before use"). */
	[TPW_CONSOLE] = {
		.name = "console", .type = TP_WT_STR, .by = USER | STUB,
		.reader = TP_FOR_KERNEL | TP_FOR_STUB, .flags = TP_WF_BARE, .hi = 127,
		.dflt = "ttyS0,115200 and tty0", .bounds = "`ttyS0,115200`, `tty0`, `uart8250,io,0x3f8`",
		.help = "Linux: a console; the stub adds the ACPI SPCR port's, and wants one when the "
			"firmware has a serial port",
	},
	[TPW_INITRD] = {
		.name = "initrd", .type = TP_WT_STR, .by = USER,
		.reader = TP_FOR_STUB, .flags = TP_WF_BARE, .hi = 255,
		.dflt = "\\EFI\\timeprobe\\initramfs.img", .bounds = "a file on the boot volume",
		.help = "the initramfs: the stub reads it and serves it to Linux with its own records "
			"appended (LINUX_EFI_INITRD_MEDIA_GUID); the word leaves the kernel's line",
	},

	/* Written by the image build (tools/kconfig-words.sh) and the launcher. */
	[TPW_VARIANT] = {
		.name = "variant", .type = TP_WT_STR, .by = BUILD, .reader = SUITE, .hi = 31,
		.dflt = "base", .help = "kernel variant name (kernel/variants/)",
	},
	[TPW_KCONFIG] = {
		.name = "kconfig", .type = TP_WT_STR, .by = BUILD, .reader = SUITE, .hi = 63,
		.dflt = "none", .bounds = "`hz:N,preempt:M,nohz:K`",
		.help = "kernel configuration highlights",
	},
	[TPW_ACCEL] = {
		.name = "accel", .type = TP_WT_STR, .by = TP_BY_LAUNCHER, .reader = SUITE,
		.hi = 63, .dflt = "none", .bounds = "`tcg:max`, `kvm:<cpu>`",
		.help = "accelerator and CPU model tools/qemu-run.sh chose (SMBIOS OEM string)",
	},
};

uint64_t tp_tsc_early_khz(uint64_t tsc_hz)
{
	return (tsc_hz + 500) / 1000;
}

int tp_line_blank(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

size_t tp_line_word(const char *line, size_t *pos, const char **start)
{
	size_t i = *pos, n;
	int q = 0;

	while (tp_line_blank(line[i]))
		i++;
	*start = line + i;
	for (n = 0; line[i]; i++, n++) {
		if (tp_line_blank(line[i]) && !q)
			break;
		if (line[i] == '"')
			q = !q;
	}
	*pos = i;
	return n;
}

/*
 * next_arg()'s cuts, as offsets into the word w[0..n): a leading quote is
 * skipped, the name ends at the first '=' after the first byte, a value's
 * leading quote is skipped and a last quote of the word dropped.
 */
static void cut_arg(struct tp_arg *a)
{
	const char *w = a->word;
	size_t n = a->len, q = w[0] == '"', eq = 0, end = n;

	for (size_t i = q + 1; i < n && !eq; i++)
		if (w[i] == '=')
			eq = i;
	a->name = w + q;
	a->has_val = eq != 0;
	if (!eq) {
		if (q && n > q && w[n - 1] == '"')
			end = n - 1;
		a->name_len = end - q;
		a->val = 0;
		a->val_len = 0;
		return;
	}
	a->name_len = eq - q;
	a->val = w + eq + 1;
	if (eq + 1 < n && w[eq + 1] == '"')
		a->val++;
	if ((q || w[eq + 1] == '"') && w[n - 1] == '"')
		end = n - 1;
	a->val_len = w + end > a->val ? (size_t)(w + end - a->val) : 0;
}

int tp_line_arg(const char *line, size_t *pos, struct tp_arg *a)
{
	a->len = tp_line_word(line, pos, &a->word);
	if (!a->len)
		return 0;
	cut_arg(a);
	return 1;
}

int tp_arg_dashes(const struct tp_arg *a)
{
	return !a->has_val && a->name_len == 2 && a->name[0] == '-' && a->name[1] == '-';
}

static char dash2underscore(char c)
{
	return c == '-' ? '_' : c;
}

int tp_param_eq(const char *a, size_t an, const char *b, size_t bn)
{
	if (an != bn)
		return 0;
	for (size_t i = 0; i < an; i++)
		if (dash2underscore(a[i]) != dash2underscore(b[i]))
			return 0;
	return 1;
}

const struct tp_word *tp_word_find(const char *name, size_t n)
{
	for (size_t i = 0; i < TPW_COUNT; i++)
		if (tp_param_eq(name, n, tp_words[i].name, tp_strlen(tp_words[i].name)))
			return &tp_words[i];
	return 0;
}

int tp_word_stub_only(const struct tp_word *w)
{
	return !(w->reader & TP_FOR_SUITE);
}

static enum tp_word_err parse_bool(const char *s, size_t n, int64_t *v)
{
	static const char *const on[] = { "1", "on", "yes", "true" };
	static const char *const off[] = { "0", "off", "no", "false" };

	for (size_t i = 0; i < 4; i++) {
		if (tp_streqn(s, n, on[i])) {
			*v = 1;
			return TP_WE_OK;
		}
		if (tp_streqn(s, n, off[i])) {
			*v = 0;
			return TP_WE_OK;
		}
	}
	return TP_WE_NOT_BOOL;
}

enum tp_word_err tp_word_int(const struct tp_word *w, const char *s, size_t n, int64_t *v)
{
	uint64_t x = 0, limit;
	size_t i = 0;
	int neg = 0, big = 0;

	if (w->type == TP_WT_BOOL)
		return parse_bool(s, n, v);
	if (n && (s[0] == '-' || s[0] == '+'))
		neg = s[i++] == '-';
	if (i == n)
		return TP_WE_NOT_NUMBER;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9')
			return TP_WE_NOT_NUMBER;
		if (x > (limit - d) / 10)
			big = 1;	/* too big, but go on looking for a non-digit */
		else
			x = x * 10 + d;
	}
	if (big)
		return TP_WE_RANGE;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	if (*v < w->lo || *v > w->hi)
		return TP_WE_RANGE;
	return TP_WE_OK;
}

enum tp_word_err tp_word_choice(const struct tp_word *w, const char *s, size_t n, int64_t *v)
{
	const char *c = w->choices;
	int64_t idx = 0;

	while (c && *c) {
		size_t len = 0;

		while (c[len] && c[len] != '|')
			len++;
		if (len == n) {
			size_t i = 0;

			while (i < n && s[i] == c[i])
				i++;
			if (i == n) {
				*v = idx;
				return TP_WE_OK;
			}
		}
		idx++;
		c += len + (c[len] == '|');
	}
	return TP_WE_CHOICE;
}

/*
 * A comma-separated list: every element checked. An empty element (",,", a
 * comma at either end) is refused rather than skipped: it is a typo.
 */
static enum tp_word_err check_list(const struct tp_word *w, const char *s, size_t n)
{
	enum tp_word_err e;
	int64_t v;

	for (size_t i = 0;; i++) {
		size_t len = 0;

		while (i + len < n && s[i + len] != ',')
			len++;
		if (!len)
			return TP_WE_EMPTY;
		if (w->type == TP_WT_INTS && (e = tp_word_int(w, s + i, len, &v)) != TP_WE_OK)
			return e;
		i += len;
		if (i == n)
			return TP_WE_OK;
	}
}

enum tp_word_err tp_word_check(const struct tp_word *w, const char *s, size_t n,
			       const char **reason)
{
	int64_t v;

	*reason = 0;
	if (!s)
		return w->type == TP_WT_BOOL ? TP_WE_OK : TP_WE_NEEDS_VALUE;
	switch (w->type) {
	case TP_WT_INT:
	case TP_WT_BOOL:
		return tp_word_int(w, s, n, &v);
	case TP_WT_CHOICE:
		return tp_word_choice(w, s, n, &v);
	case TP_WT_INTS:
	case TP_WT_NAMES:
		return check_list(w, s, n);
	case TP_WT_STR:
		if ((int64_t)n > w->hi)
			return TP_WE_TOO_LONG;
		if (w->check && (*reason = w->check(s, n)) != 0)
			return TP_WE_FORMAT;
		return TP_WE_OK;
	}
	return TP_WE_FORMAT;
}

void tp_word_why(struct tp_buf *b, const struct tp_word *w, enum tp_word_err e,
		 const char *reason)
{
	switch (e) {
	case TP_WE_OK:
		tp_buf_puts(b, "ok");
		break;
	case TP_WE_NOT_NUMBER:
		tp_buf_puts(b, "not a number");
		break;
	case TP_WE_RANGE:
		tp_buf_puts(b, "out of range ");
		tp_buf_puti(b, w->lo);
		tp_buf_puts(b, "..");
		tp_buf_puti(b, w->hi);
		break;
	case TP_WE_NOT_BOOL:
		tp_buf_puts(b, "not a boolean (0, 1, on, off)");
		break;
	case TP_WE_CHOICE:
		tp_buf_puts(b, "not one of ");
		tp_buf_puts(b, w->choices);
		break;
	case TP_WE_EMPTY:
		tp_buf_puts(b, "empty list or list element");
		break;
	case TP_WE_TOO_LONG:
		tp_buf_puts(b, "longer than ");
		tp_buf_puti(b, w->hi);
		tp_buf_puts(b, " characters");
		break;
	case TP_WE_NEEDS_VALUE:
		tp_buf_puts(b, "needs a value (NAME=VALUE)");
		break;
	case TP_WE_FORMAT:
		tp_buf_puts(b, reason ? reason : "malformed");
		break;
	}
}
