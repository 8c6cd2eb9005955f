// SPDX-License-Identifier: MIT
/* The stub's own PE sections; see pe.h. EFI-free, tested by tests/unit/test_pe.c. */
#include "arch.h"
#include "pe.h"
#include "../common/le.h"

/* PE format 3.3 COFF File Header offsets, from the "PE\0\0" signature */
#define COFF_NUMBER_OF_SECTIONS 6
#define COFF_SIZE_OF_OPT_HEADER 20
#define COFF_HDR_END 24
/* PE format 3.4: optional header; SizeOfImage is at 56 in PE32 and PE32+ */
#define OPT_MAGIC 0
#define OPT_SIZE_OF_IMAGE 56
#define OPT_SIZE_OF_HEADERS 60
#define OPT_MAGIC_PE32 0x10b
#define OPT_MAGIC_PE32PLUS 0x20b
/* PE format 4: section table entries of 40 bytes */
#define SEC_ENTRY_LEN 40
#define SEC_VIRTUAL_SIZE 8
#define SEC_VIRTUAL_ADDRESS 12
#define SEC_SIZE_OF_RAW_DATA 16
#define SEC_POINTER_TO_RAW_DATA 20

/* Section names are 8 bytes, NUL-padded when shorter (PE format 4). */
static int name_eq(const uint8_t *field, const char *name)
{
	size_t i;

	for (i = 0; i < 8 && name[i]; i++)
		if (field[i] != (uint8_t)name[i])
			return 0;
	return i == 8 || field[i] == 0;
}

/* [off, off + n) inside [0, len), without overflow */
static int in_range(uint64_t off, uint64_t n, uint64_t len)
{
	return off <= len && n <= len - off;
}

/* What the headers say of the section table (pe_headers()). */
struct pe_table {
	uint32_t table;		/* the section table's offset */
	uint32_t image_size;	/* SizeOfImage */
	uint16_t nsec;		/* NumberOfSections */
};

/* The MZ and PE signatures and the optional header of the image p (len bytes). */
static int pe_signatures(const uint8_t *p, size_t len, uint32_t *pe, const char **why)
{
	if (!p || len < 0x40 || p[0] != 'M' || p[1] != 'Z') {
		*why = "no MZ signature";
		return -1;
	}
	*pe = le32(p + 0x3c);
	if (!in_range(*pe, COFF_HDR_END, len) || p[*pe] != 'P' || p[*pe + 1] != 'E' ||
	    p[*pe + 2] || p[*pe + 3]) {
		*why = "no PE signature at e_lfanew";
		return -2;
	}
	return 0;
}

/* The headers up to the section table, checked to lie inside the image. */
static int pe_headers(const uint8_t *p, size_t len, struct pe_table *t, const char **why)
{
	uint32_t pe, opt;
	uint16_t opt_len, magic;
	int rc = pe_signatures(p, len, &pe, why);

	if (rc < 0)
		return rc;
	t->nsec = le16(p + pe + COFF_NUMBER_OF_SECTIONS);
	opt_len = le16(p + pe + COFF_SIZE_OF_OPT_HEADER);
	opt = pe + COFF_HDR_END;
	if (opt_len < OPT_SIZE_OF_HEADERS + 4 || !in_range(opt, opt_len, len)) {
		*why = "optional header truncated";
		return -3;
	}
	magic = le16(p + opt + OPT_MAGIC);
	if (magic != OPT_MAGIC_PE32 && magic != OPT_MAGIC_PE32PLUS) {
		*why = "unknown optional header magic";
		return -4;
	}
	if (t->nsec > TP_PE_MAX_SECTIONS) {
		*why = "more than 96 sections";
		return -5;
	}
	t->table = opt + opt_len;
	if (!in_range(t->table, (uint64_t)t->nsec * SEC_ENTRY_LEN, len)) {
		*why = "section table outside the image";
		return -6;
	}
	t->image_size = le32(p + opt + OPT_SIZE_OF_IMAGE);
	return 0;
}

/* Where the section whose table entry is s lies in the layout: *off, *n bytes. */
static void section_span(const uint8_t *s, enum tp_pe_layout layout, uint32_t *off, uint32_t *n)
{
	uint32_t vsize = le32(s + SEC_VIRTUAL_SIZE);

	if (layout == TP_PE_LOADED) {
		/* the loader zero-fills VirtualSize beyond SizeOfRawData */
		*off = le32(s + SEC_VIRTUAL_ADDRESS);
		*n = vsize;
	} else {
		uint32_t raw = le32(s + SEC_SIZE_OF_RAW_DATA);

		*off = le32(s + SEC_POINTER_TO_RAW_DATA);
		/* PE format 4: VirtualSize 0 means SizeOfRawData; raw data
		 * is padded to FileAlignment, VirtualSize is exact */
		*n = vsize && vsize < raw ? vsize : raw;
	}
}

int tp_pe_find_section(const void *base, size_t len, enum tp_pe_layout layout,
		       const char *name, struct tp_pe_section *sec, const char **why)
{
	const uint8_t *p = base;
	struct pe_table t;
	uint64_t limit = len;
	int rc;

	sec->data = 0;
	sec->size = 0;
	*why = 0;
	if ((rc = pe_headers(p, len, &t, why)) < 0)
		return rc;
	/* A loaded image spans SizeOfImage bytes; never read past either end. */
	if (layout == TP_PE_LOADED && t.image_size < limit)
		limit = t.image_size;
	for (uint16_t i = 0; i < t.nsec; i++) {
		const uint8_t *s = p + t.table + (size_t)i * SEC_ENTRY_LEN;
		uint32_t off, n;

		if (!name_eq(s, name))
			continue;
		section_span(s, layout, &off, &n);
		if (!in_range(off, n, limit)) {
			*why = "section outside the image";
			return -7;
		}
		sec->data = p + off;
		sec->size = n;
		return 1;
	}
	return 0;
}

int tp_payload_find(const void *base, size_t len, enum tp_pe_layout layout,
		    struct tp_payload *pl, const char **why)
{
	static const char *const names[3] = { ".linux", ".initrd", ".cmdline" };
	struct tp_pe_section *secs[3] = { &pl->kernel, &pl->initrd, &pl->cmdline };

	for (int i = 0; i < 3; i++) {
		int rc = tp_pe_find_section(base, len, layout, names[i], secs[i], why);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- the kernel image, before LoadImage ---- */

#define PE_OPT_MAGIC_PE32PLUS 0x20b
#define PE_SUBSYSTEM_EFI_APPLICATION 10
/* Linux x86 boot protocol (Documentation/x86/boot.rst) */
#define LINUX_HDR_MAGIC_OFF 0x202
#define LINUX_HDR_VERSION_OFF 0x206
#define LINUX_HDR_KVER_OFF 0x20e
/* Linux arm64 Image header (Documentation/arm64/booting.rst): "ARM\x64" at 56 */
#define LINUX_ARM64_MAGIC_OFF 0x38
#define LINUX_ARM64_MAGIC 0x644d5241u

/* The PE headers a kernel needs (systemd's linux.c): its signatures, this
 * architecture's machine, PE32+, an EFI application. */
static int kernel_pe(const uint8_t *p, size_t len, struct tp_kernel_info *ki, const char **why)
{
	uint32_t pe;

	if (!p || len < 0x40 || p[0] != 'M' || p[1] != 'Z') {
		*why = "no MZ signature";
		return -1;
	}
	pe = le32(p + 0x3c);	/* e_lfanew */
	/* PE signature, COFF header (20), PE32+ optional header up to Subsystem */
	if (pe > len || len - pe < 4 + 20 + 70) {
		*why = "PE header offset out of range";
		return -2;
	}
	if (p[pe] != 'P' || p[pe + 1] != 'E' || p[pe + 2] || p[pe + 3]) {
		*why = "no PE signature";
		return -3;
	}
	ki->machine = (uint16_t)(p[pe + 4] | p[pe + 5] << 8);
	if (ki->machine != TP_ARCH_PE_MACHINE) {
		*why = "PE machine is not " TP_ARCH_NAME;
		return -4;
	}
	if ((p[pe + 24] | p[pe + 25] << 8) != PE_OPT_MAGIC_PE32PLUS) {
		*why = "not a PE32+ image";
		return -5;
	}
	ki->subsystem = (uint16_t)(p[pe + 24 + 68] | p[pe + 24 + 69] << 8);
	if (ki->subsystem != PE_SUBSYSTEM_EFI_APPLICATION) {
		*why = "PE subsystem is not EFI application";
		return -6;
	}
	return 0;
}

/* The x86 boot protocol's kernel_version string (an offset from 0x200 of a
 * NUL-terminated string; kv 0: none), printable bytes only, into ki->version. */
static void kernel_version(const uint8_t *p, size_t len, uint32_t kv, struct tp_kernel_info *ki)
{
	size_t n = 0;

	if (kv) {
		kv += 0x200;
		while (kv + n < len && n < sizeof(ki->version) - 1 && p[kv + n] >= 0x20 &&
		       p[kv + n] < 0x7f) {
			ki->version[n] = (char)p[kv + n];
			n++;
		}
	}
	ki->version[n] = 0;
}

/* Whether the image is Linux's: the x86 boot protocol's "HdrS" (with its
 * version and the kernel's), or the arm64 Image header's magic. */
static void kernel_linux(const uint8_t *p, size_t len, struct tp_kernel_info *ki)
{
	if (len > LINUX_HDR_KVER_OFF + 2 && p[0x202] == 'H' && p[0x203] == 'd' &&
	    p[0x204] == 'r' && p[0x205] == 'S') {
		ki->is_linux = 1;
		ki->boot_protocol =
			(uint16_t)(p[LINUX_HDR_VERSION_OFF] | p[LINUX_HDR_VERSION_OFF + 1] << 8);
		kernel_version(p, len,
			       (uint32_t)(p[LINUX_HDR_KVER_OFF] | p[LINUX_HDR_KVER_OFF + 1] << 8), ki);
	} else if (le32(p + LINUX_ARM64_MAGIC_OFF) == LINUX_ARM64_MAGIC) {
		ki->is_linux = 1;	/* the arm64 header carries no version string */
	}
}

int tp_kernel_check(const void *buf, size_t len, struct tp_kernel_info *ki, const char **why)
{
	int rc;

	ki->machine = 0;
	ki->subsystem = 0;
	ki->is_linux = 0;
	ki->boot_protocol = 0;
	ki->version[0] = 0;
	*why = 0;
	if ((rc = kernel_pe(buf, len, ki, why)) < 0)
		return rc;
	kernel_linux(buf, len, ki);
	return 0;
}
