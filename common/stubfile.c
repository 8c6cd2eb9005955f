// SPDX-License-Identifier: MIT
/* The stub's records as a file in a newc cpio; see stubfile.h. Freestanding. */
#include "stubfile.h"
#include "buf.h"
#include "stubcpu.h"
#include "words.h"

const char *const tp_stub_types[] = {
	"stub", "stub_error", "stub_warning", "stub_console", "stub_cmdline", "stub_start",
	TP_STUB_HANDOFF, "calib", "calib_summary", TP_SC_TSCSYNC, TP_SC_HWLAT, 0,
};

int tp_stub_type(const char *type, size_t n)
{
	for (size_t i = 0; tp_stub_types[i]; i++)
		if (tp_streqn(type, n, tp_stub_types[i]))
			return 1;
	return 0;
}

/* generated once for timeprobe (a version 4 UUID); TP_VENDOR_GUID_STR spells it */
const struct tp_guid tp_vendor_guid = {
	0xf5816c5a, 0xf5ca, 0x480e, { 0x94, 0x37, 0x68, 0xae, 0x3d, 0x85, 0xe4, 0x74 }
};

static void str_key(struct tp_rec *r, enum tp_word_id id, const char *v)
{
	if (v && v[0])
		tp_rec_str(r, tp_words[id].name, v);
}

void tp_stub_handoff(struct tp_rec *r, const struct tp_stub_values *v)
{
	if (v->tsc_hz)
		tp_rec_uint(r, tp_words[TPW_TSC_HZ].name, v->tsc_hz);
	str_key(r, TPW_TSC_REF, v->tsc_ref);
	str_key(r, TPW_BOOTPART, v->bootpart);
	str_key(r, TPW_FIRMWARE, v->firmware);
	str_key(r, TPW_BOOT_TSC, v->boot_tsc);
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

size_t tp_cpio_entry_size(const char *name, size_t data_len)
{
	return align4(TP_CPIO_HEADER + tp_strlen(name) + 1) + align4(data_len);
}

size_t tp_cpio_stub_size(size_t data_len)
{
	return tp_cpio_entry_size("run", 0) + tp_cpio_entry_size(TP_STUB_DIR, 0) +
	       tp_cpio_entry_size(TP_STUB_FILE, data_len) + tp_cpio_entry_size("TRAILER!!!", 0);
}

void tp_cpio_init(struct tp_cpio *c, void *buf, size_t cap)
{
	c->p = buf;
	c->cap = cap;
	c->len = 0;
	c->ino = 0x7470;	/* any: the kernel links only entries with nlink > 1 */
	c->overflow = 0;
}

static void put(struct tp_cpio *c, const void *data, size_t n)
{
	const uint8_t *d = data;

	for (size_t i = 0; i < n; i++)
		c->p[c->len++] = d[i];
	while (c->len & 3)
		c->p[c->len++] = 0;
}

static void hex8(uint8_t *out, uint32_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 4)
		out[i] = (uint8_t)"0123456789abcdef"[v & 15];
}

/* One entry: the header's 13 fields (buffer-format.rst), name, data. */
static void entry(struct tp_cpio *c, const char *name, uint32_t mode, uint32_t nlink,
		  const void *data, size_t n)
{
	uint8_t h[TP_CPIO_HEADER + 1];
	uint32_t f[13] = { 0 };
	size_t namesize = tp_strlen(name) + 1;

	if (c->overflow || c->len + tp_cpio_entry_size(name, n) > c->cap || n > 0xffffffffu) {
		c->overflow = 1;
		return;
	}
	f[0] = c->ino++;	/* ino; then mode, uid, gid, nlink, mtime, filesize, */
	f[1] = mode;		/* devmajor, devminor, rdevmajor, rdevminor, namesize, */
	f[4] = nlink;		/* check (0 for newc) */
	f[6] = (uint32_t)n;
	f[11] = (uint32_t)namesize;
	for (size_t i = 0; i < 6; i++)
		h[i] = (uint8_t)"070701"[i];
	for (int i = 0; i < 13; i++)
		hex8(h + 6 + 8 * i, f[i]);
	for (size_t i = 0; i < TP_CPIO_HEADER; i++)
		c->p[c->len++] = h[i];
	put(c, name, namesize);
	put(c, data, n);
}

void tp_cpio_dir(struct tp_cpio *c, const char *name)
{
	entry(c, name, 0040755, 2, 0, 0);
}

void tp_cpio_file(struct tp_cpio *c, const char *name, const void *data, size_t n)
{
	entry(c, name, 0100444, 1, data, n);
}

void tp_cpio_end(struct tp_cpio *c)
{
	c->ino = 0;
	entry(c, "TRAILER!!!", 0, 1, 0, 0);
}

void tp_cpio_stub(struct tp_cpio *c, const void *data, size_t n)
{
	tp_cpio_dir(c, "run");
	tp_cpio_dir(c, TP_STUB_DIR);
	tp_cpio_file(c, TP_STUB_FILE, data, n);
	tp_cpio_end(c);
}

/* What the keys of the stub's records are (calib also the suite's probe tsc writes) (common/recdecl.h): rows tried in order. */
const struct tp_rec_key tp_stub_rec_keys[] = {
	{ "calib", "source", TP_KEY_ID, "stub, kernel or user" },
	{ "calib", "ref", TP_KEY_ID, "the reference clock" },
	{ "calib", "*_hz", TP_KEY_FIGURE, "frequencies: TSC, reference, crystal" },
	{ "calib", "*_ppm", TP_KEY_FIGURE, "spread and outlier limit" },
	{ "calib", "rejected", TP_KEY_FIGURE, "rounds rejected" },
	{ "calib", "retried", TP_KEY_FIGURE, "rounds retried" },
	{ "calib", "failed_rounds", TP_KEY_FIGURE, "user rounds without a figure, left out" },
	{ "calib", "derived_from", TP_KEY_CONTEXT, "the figure or source it was taken from" },
	{ "calib", "independent_of", TP_KEY_CONTEXT, "the figures of another origin" },
	{ "calib", "duration_us", TP_KEY_BUDGET, "time calibrating" },
	{ "calib", "log_us", TP_KEY_FIGURE, "kernel log time of the message" },
	{ "calib", "base_mhz", TP_KEY_FIGURE, "CPUID 0x16 base frequency" },
	{ "calib", "numerator", TP_KEY_FIGURE, "CPUID 0x15 EBX" },
	{ "calib", "denominator", TP_KEY_FIGURE, "CPUID 0x15 EAX" },
	{ "calib", "period_fs", TP_KEY_FIGURE, "HPET period" },
	{ "calib", "rounds", TP_KEY_CONTEXT, "rounds asked for" },
	{ "calib", "*window_ms", TP_KEY_CONTEXT, "length of one round" },
	{ "calib", "round_ms", TP_KEY_CONTEXT, "length of one round" },
	{ "calib", "latch", TP_KEY_CONTEXT, "PIT count" },
	{ "calib", "bits", TP_KEY_CONTEXT, "PM timer width" },
	{ "calib", "space", TP_KEY_CONTEXT, "PM timer address space" },
	{ "calib", "*", TP_KEY_CONTEXT, "what the reference is and whether it worked" },
	{ "calib_summary", "source", TP_KEY_ID, "stub" },
	{ "calib_summary", "tsc_hz", TP_KEY_FIGURE, "the chosen frequency" },
	{ "calib_summary", "*_ppm", TP_KEY_FIGURE, "disagreement between hardware references" },
	{ "calib_summary", "hardware_refs", TP_KEY_FIGURE, "hardware references that worked" },
	{ "calib_summary", "*", TP_KEY_CONTEXT, "the choice and how it was made" },
	{ "stub*", "*", TP_KEY_CONTEXT, "what the firmware stub found and did" },
	TP_REC_KEYS_END,
};
