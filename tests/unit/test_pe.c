// SPDX-License-Identifier: MIT
/*
 * Host tests of the single-file stub's own PE sections (boot/pe.c) on a real
 * build's headers: build/boot/BOOTX64.EFI (no payload) and the same stub made
 * into a single file by boot/mkefi.sh with known payloads (the fixture, see
 * boot/boot.mk). Each is checked as a file and as the firmware loads it
 * (sections copied to their VirtualAddress), and the embedded command line
 * goes through the stub's own steps (clean, drop initrd=). TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../boot/cmdfile.h"
#include "../../boot/cmdline.h"
#include "../../boot/pe.h"
#include "tap.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/*
 * What the firmware does with a PE file (UEFI 2.10, 7.4 LoadImage; PE
 * format 3.4, 4): SizeOfImage zeroed bytes, the headers at 0, each section's
 * raw data at its VirtualAddress. Written from the spec, apart from pe.c.
 */
static uint8_t *load_like_firmware(const uint8_t *file, size_t len, size_t *image_len)
{
	uint32_t pe = rd32(file + 0x3c);
	uint16_t nsec = rd16(file + pe + 6), opt_len = rd16(file + pe + 20);
	const uint8_t *opt = file + pe + 24, *sec = opt + opt_len;
	uint32_t size = rd32(opt + 56), hdrs = rd32(opt + 60);
	uint8_t *img = calloc(1, size);

	if (!img || hdrs > len || hdrs > size)
		return NULL;
	memcpy(img, file, hdrs);
	for (int i = 0; i < nsec; i++, sec += 40) {
		uint32_t vsize = rd32(sec + 8), va = rd32(sec + 12);
		uint32_t raw = rd32(sec + 16), ptr = rd32(sec + 20);
		uint32_t n = raw < vsize ? raw : vsize;

		if (va + (uint64_t)vsize > size || ptr + (uint64_t)n > len)
			return NULL;
		memcpy(img + va, file + ptr, n);
	}
	*image_len = size;
	return img;
}

static int same(const struct tp_pe_section *s, const uint8_t *want, size_t n)
{
	return s->data && s->size == n && memcmp(s->data, want, n) == 0;
}

static void test_plain_stub(void)
{
	size_t len = 0, ilen = 0;
	uint8_t *f = slurp(TP_PE_STUB, &len), *img;
	struct tp_payload pl;
	struct tp_pe_section text;
	const char *why = NULL;

	if (!ok(f != NULL, "read %s", TP_PE_STUB))
		return;
	is_int(tp_payload_find(f, len, TP_PE_FILE, &pl, &why), 0,
	       "BOOTX64.EFI: headers parse (file)");
	ok(!pl.kernel.data && !pl.initrd.data && !pl.cmdline.data,
	   "BOOTX64.EFI: no payload: file mode");
	img = load_like_firmware(f, len, &ilen);
	ok(img != NULL, "BOOTX64.EFI loads like the firmware would");
	if (img) {
		is_int(tp_payload_find(img, ilen, TP_PE_LOADED, &pl, &why), 0,
		       "BOOTX64.EFI: headers parse (loaded)");
		ok(!pl.kernel.data, "BOOTX64.EFI loaded: no .linux");
		is_int(tp_pe_find_section(img, ilen, TP_PE_LOADED, ".text", &text, &why), 1,
		       ".text found in the loaded stub");
		ok(text.data > img && text.size > 0, ".text inside the loaded image");
		free(img);
	}
	free(f);
}

static void test_fixture(void)
{
	size_t len = 0, ilen = 0, klen = 0, rlen = 0, clen = 0;
	uint8_t *f = slurp(TP_PE_FIXTURE, &len), *img;
	uint8_t *kernel = slurp(TP_PE_STUB, &klen);
	uint8_t *initrd = slurp(TP_PE_FIXTURE_DIR "/initrd.bin", &rlen);
	uint8_t *cmd = slurp(TP_PE_FIXTURE_DIR "/cmdline.txt", &clen);
	struct tp_payload pl;
	struct tp_kernel_info ki;
	const char *why = NULL;
	char line[TP_CMDLINE_MAX + 1];

	if (!ok(f && kernel && initrd && cmd, "read the fixture and its inputs"))
		return;
	is_int(tp_payload_find(f, len, TP_PE_FILE, &pl, &why), 0, "fixture: headers parse (file)");
	ok(same(&pl.kernel, kernel, klen), "file: .linux holds the kernel, %zu bytes", klen);
	ok(same(&pl.initrd, initrd, rlen), "file: .initrd holds the initramfs, exact size %zu",
	   rlen);
	ok(same(&pl.cmdline, cmd, clen), "file: .cmdline holds the command line, exact size %zu",
	   clen);

	img = load_like_firmware(f, len, &ilen);
	if (!ok(img != NULL, "fixture loads like the firmware would"))
		return;
	is_int(tp_payload_find(img, ilen, TP_PE_LOADED, &pl, &why), 0,
	       "fixture: headers parse (loaded)");
	ok(same(&pl.kernel, kernel, klen), "loaded: .linux holds the kernel");
	ok(same(&pl.initrd, initrd, rlen),
	   "loaded: .initrd holds the initramfs (VirtualSize, not padded)");
	ok(same(&pl.cmdline, cmd, clen), "loaded: .cmdline holds the command line");
	ok(pl.cmdline.data < pl.initrd.data && pl.initrd.data < pl.kernel.data,
	   "layout: .cmdline, .initrd, .linux in that order (ukify's, kernel last)");
	ok(((pl.kernel.data - img) & 0xfff) == 0 && ((pl.initrd.data - img) & 0xfff) == 0,
	   "payload sections at SectionAlignment (4 KiB) boundaries");
	is_int(tp_kernel_check(pl.kernel.data, pl.kernel.size, &ki, &why), 0,
	       "the embedded kernel passes the stub's header check");

	/* the stub's steps in single-file mode: clean, then drop initrd= */
	tp_cmdline_clean(line, sizeof(line), pl.cmdline.data, pl.cmdline.size, NULL);
	is_str(line, "console=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img quiet",
	       "embedded line cleaned (comment line skipped)");
	is_int(tp_cmdline_drop(line, "initrd"), 1, "one initrd= dropped");
	is_str(line, "console=ttyS0,115200 quiet", "no initrd= left");

	/* a section running past SizeOfImage is refused, not read */
	{
		uint32_t pe = rd32(img + 0x3c);
		uint16_t opt_len = rd16(img + pe + 20);
		uint8_t *sec = img + pe + 24 + opt_len;
		uint16_t nsec = rd16(img + pe + 6);

		for (int i = 0; i < nsec; i++, sec += 40)
			if (!memcmp(sec, ".linux", 7))
				sec[8 + 3] = 0x7f; /* VirtualSize += 2 GiB */
		int rc = tp_payload_find(img, ilen, TP_PE_LOADED, &pl, &why);

		ok(rc < 0 && why, "section beyond SizeOfImage refused (%s)", why ? why : "");
	}
	free(img);
	free(f);
	free(kernel);
	free(initrd);
	free(cmd);
}

static void test_malformed(void)
{
	size_t len = 0;
	uint8_t *f = slurp(TP_PE_FIXTURE, &len), *c;
	struct tp_pe_section s;
	const char *why = NULL;
	uint32_t pe;
	int rc;

	if (!ok(f != NULL, "read the fixture again"))
		return;
	c = malloc(len);
	pe = rd32(f + 0x3c);

	memcpy(c, f, len);
	c[0] = 'X';
	ok(tp_pe_find_section(c, len, TP_PE_FILE, ".linux", &s, &why) < 0 &&
	       !strcmp(why, "no MZ signature"),
	   "no MZ: refused");
	ok(tp_pe_find_section(f, 0x30, TP_PE_FILE, ".linux", &s, &why) < 0,
	   "shorter than a DOS header: refused");
	ok(tp_pe_find_section(f, pe + 10, TP_PE_FILE, ".linux", &s, &why) < 0,
	   "cut inside the COFF header: refused");
	ok(tp_pe_find_section(NULL, 100, TP_PE_FILE, ".linux", &s, &why) < 0,
	   "NULL image: refused");

	memcpy(c, f, len);
	c[0x3c] = 0xf0;
	c[0x3d] = 0xff;
	c[0x3e] = 0xff;
	c[0x3f] = 0x7f;
	rc = tp_pe_find_section(c, len, TP_PE_FILE, ".linux", &s, &why);
	ok(rc < 0, "e_lfanew far out: refused (%s)", why);

	memcpy(c, f, len);
	c[pe + 6] = 200;
	rc = tp_pe_find_section(c, len, TP_PE_FILE, ".linux", &s, &why);
	ok(rc < 0, "200 sections: refused (%s)", why);

	memcpy(c, f, len);
	c[pe + 24] = 0x07; /* optional header magic */
	ok(tp_pe_find_section(c, len, TP_PE_FILE, ".linux", &s, &why) < 0,
	   "bad optional header magic: refused");

	is_int(tp_pe_find_section(f, len, TP_PE_FILE, ".linu", &s, &why), 0,
	       "a name prefix does not match");
	is_int(tp_pe_find_section(f, len, TP_PE_FILE, ".linuxx", &s, &why), 0,
	       "a longer name does not match");
	is_int(tp_pe_find_section(f, len, TP_PE_FILE, ".cmdline", &s, &why), 1,
	       "an 8-character name (no NUL in the field) matches");
	free(c);
	free(f);
}

static void test_drop(void)
{
	char l[128];

	strcpy(l, "initrd=a console=ttyS0 initrd=\\b quiet initrd");
	is_int(tp_cmdline_drop(l, "initrd"), 3, "three initrd words (bare one included)");
	is_str(l, "console=ttyS0 quiet", "others kept, single spaces");
	strcpy(l, "initrdx=1 myinitrd=2 a=\"initrd=3 x\"");
	is_int(tp_cmdline_drop(l, "initrd"), 0,
	       "initrdx=, myinitrd= and a quoted value are not initrd=");
	is_str(l, "initrdx=1 myinitrd=2 a=\"initrd=3 x\"", "line unchanged");
	strcpy(l, "initrd=only");
	is_int(tp_cmdline_drop(l, "initrd"), 1, "the only word");
	is_str(l, "", "empty line left");
	strcpy(l, "");
	is_int(tp_cmdline_drop(l, "initrd"), 0, "empty line");
}

int main(void)
{
	test_plain_stub();
	test_fixture();
	test_malformed();
	test_drop();
	return tap_done();
}
