// SPDX-License-Identifier: MIT
/*
 * The stub's file across the joint (common/stubfile.h): the stub's newc
 * archive (common/stubfile.c) checked by the layout rules and by GNU cpio
 * when the host has it, appended to an initramfs of any length as the stub
 * serves it, and read back by PID 1's reader (userland/stubread.c): every
 * record kept as it stands, the values taken, a bad line refused. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stubjoint.h"
#include "tap.h"

static char kept[8192];
static size_t kept_len;

static void keep(const char *line, size_t len)
{
	memcpy(kept + kept_len, line, len);
	kept_len += len;
}

/* Two of the stub's records and its stub_handoff, as its console keeps them. */
static size_t stub_records(char *out, size_t cap)
{
	static struct tp_rec r;
	size_t n = 0;
	const char *l;

	tp_rec_begin(&r, "stub");
	tp_rec_str(&r, "firmware_vendor", "EDK II");
	l = tp_rec_finish(&r);
	n += (size_t)snprintf(out + n, cap - n, "%s", l);
	tp_rec_begin(&r, "stub_tscsync");
	tp_rec_str(&r, "what", "summary");
	tp_rec_uint(&r, "processors", 20);
	l = tp_rec_finish(&r);
	n += (size_t)snprintf(out + n, cap - n, "%s", l);
	tp_rec_begin(&r, TP_STUB_HANDOFF);
	tp_stub_handoff(&r, &(struct tp_stub_values){ .tsc_hz = 2096019976, .tsc_ref = "hpet",
		.boot_tsc = "1:2:3:4:5:6", .firmware = "00010000:00020046:EDK%20II" });
	l = tp_rec_finish(&r);
	n += (size_t)snprintf(out + n, cap - n, "%s", l);
	return n;
}

static void test_layout(const char *recs, size_t n)
{
	static uint8_t a[16384];
	struct tp_cpio c;
	size_t len, at = 0, headers = 0, aligned = 0;
	const char *t;

	tp_cpio_init(&c, a, sizeof(a));
	tp_cpio_stub(&c, recs, n);
	ok(!c.overflow && c.len == tp_cpio_stub_size(n), "the archive is the size the stub allocates "
	   "(%zu)", c.len);
	ok(c.len % 4 == 0, "a multiple of 4 bytes");
	for (at = 0; at + 6 <= c.len; at++)
		if (!memcmp(a + at, "070701", 6)) {
			headers++;
			aligned += at % 4 == 0;
		}
	ok(headers == 4 && aligned == 4, "4 entries (run, run/timeprobe, the file, the trailer), "
	   "each from a 4-byte boundary");
	t = tp_cpio_find(a, c.len, TP_STUB_FILE, &len);
	ok(t && len == n && !memcmp(t, recs, n), "the file holds the records byte for byte");
	ok(!tp_cpio_find(a, c.len, "run/timeprobe", &len), "a directory is no file");
	ok(!tp_cpio_find(a, c.len - 200, TP_STUB_FILE, &len), "a cut archive: nothing found");
	tp_cpio_init(&c, a, 300);
	tp_cpio_stub(&c, recs, n);
	ok(c.overflow, "an archive that does not fit says so");
}

/* GNU cpio, a parser of its own, reads what the stub writes. */
static void test_gnu_cpio(const char *recs, size_t n)
{
	static uint8_t a[16384];
	char path[] = "/tmp/tp-stubcpio-XXXXXX", cmd[200], back[8192];
	struct tp_cpio c;
	FILE *p;
	size_t got;
	int fd;

	if (system("cpio --version >/dev/null 2>&1") != 0) {
		printf("ok %d # SKIP no cpio on this host\n", ++tap_n);
		return;
	}
	/* an initramfs of 5 bytes first, NUL-padded to 8, as the stub serves it */
	memcpy(a, "\0\0\0\0\0\0\0\0", 8);
	tp_cpio_init(&c, a + 8, sizeof(a) - 8);
	tp_cpio_stub(&c, recs, n);
	fd = mkstemp(path);
	if (fd < 0 || write(fd, a + 8, c.len) != (ssize_t)c.len) {
		ok(0, "temporary file");
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "cpio -i --quiet --to-stdout %s < %s", TP_STUB_FILE, path);
	p = popen(cmd, "r");
	got = p ? fread(back, 1, sizeof(back), p) : 0;
	ok(p && pclose(p) == 0 && got == n && !memcmp(back, recs, n),
	   "GNU cpio extracts " TP_STUB_FILE " equal (%zu of %zu bytes)", got, n);
	unlink(path);
}

static void test_reader(const char *recs, size_t n)
{
	static struct stub_handoff o;
	struct opt_errors errs = { 0 };
	struct stubfile_report rep = { 0 };
	static char text[8192];

	stubfile_apply(&o, recs, n, &errs, keep, &rep);
	ok(rep.records == 3 && rep.refused == 0 && rep.values == 4 && errs.n == 0,
	   "3 records, 4 values taken, no error (%u, %u, %zu)", rep.records, rep.values, errs.n);
	ok(kept_len == n && !memcmp(kept, recs, n), "every record kept as it stands");
	ok(o.tsc_hz == 2096019976 && !strcmp(o.tsc_ref, "hpet") && o.have_boot_tsc &&
	   o.boot_tsc.entry == 1 && o.boot_tsc.handover == 6 && o.have_firmware &&
	   !strcmp(o.firmware.vendor, "EDK II") && o.firmware.uefi == 0x20046,
	   "the values arrive equal, typed");

	/* a forged record (its CRC wrong) and a record cut short */
	memcpy(text, recs, n);
	memcpy(text + n, "TP1 {\"type\":\"stub_handoff\",\"tsc_hz\":1234567} *00000000\n", 55);
	memcpy(text + n + 55, recs + n - 40, 40);
	kept_len = 0;
	errs.n = 0;
	stubfile_apply(&o, text, n + 95, &errs, keep, &rep);
	ok(o.tsc_hz == 2096019976 && errs.n == 2 && kept_len == n,
	   "a forged record and a fragment: refused by name, the stub's kept (%zu errors)", errs.n);
	printf("# %s: %s\n", errs.n ? errs.e[0].value : "-", errs.n ? errs.e[0].reason : "-");
}

int main(void)
{
	static char recs[4096];
	size_t n = stub_records(recs, sizeof(recs));

	ok(n > 100 && !strcmp(TP_STUB_FILE_PATH, "/run/timeprobe/stub.tp1"),
	   "the path both sides use");
	test_layout(recs, n);
	test_gnu_cpio(recs, n);
	test_reader(recs, n);
	return tap_done();
}
