/* SPDX-License-Identifier: MIT */
/*
 * The formats of the values the stub hands to the suite in its file
 * (common/stubfile.h), each with its one formatter and its one parser
 * (docs/stub.md, "What the stub adds"):
 *   tsc_calib   <ref>:<Hz>:<spread_ppm>,...
 *   bootpart    gpt:<guid> | mbr:<8 hex>:<n> | unknown
 *   firmware    <FirmwareRevision, 8 hex>:<UEFI revision, 8 hex>:<vendor>
 *   tsc_preos   <bsp apic>:<adj>,<ap apic>:<lo>:<hi>:<rtt>:<samples>:<c>:<adj>,...
 *   hwlat_preos, boot_tsc (below); GUID text, 8-4-4-4-12 lowercase hex
 *   (UEFI 2.10, Appendix A)
 * Freestanding C (no libc), built by the stub and the suite; the parsers
 * take text from a file or a command line, hostile until checked.
 */
#ifndef TP_COMMON_HANDOFF_H
#define TP_COMMON_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * The longest per-CPU value (tsc_preos, hwlat_preos): each travels alone in
 * a stub_handoff record of the stub's file (common/stubfile.h), whose line
 * holds at most TP_REC_LINE_MAX (8 190) bytes; no longer on the kernel's
 * 2 048-byte line.
 */
#define TP_HANDOFF_VALUE_MAX 7167

/* ---- timeprobe.tsc_calib ---- */

#define TP_CALIB_REF_MAX 15	/* bytes of a reference name, [a-z0-9_] */
#define TP_CALIB_HZ_MIN 1000000LL	/* the bounds of timeprobe.tsc_hz */
#define TP_CALIB_HZ_MAX 100000000000LL

struct tp_calib_item {
	char ref[TP_CALIB_REF_MAX + 1];
	int64_t hz;
	uint64_t spread_mppm;	/* spread in ppm x 1000 (up to 3 decimals) */
};

/* Appends "ref:hz:spread_ppm" to a comma-separated list. */
void tp_calib_list_add(struct tp_buf *b, const char *ref, uint64_t hz, uint32_t spread_ppm);

/*
 * Next non-empty entry of a list at *pos (start with 0): sets *item and
 * returns its length, 0 at the end. ",," and a trailing comma are skipped.
 */
size_t tp_calib_list_next(const char *list, size_t *pos, const char **item);

/* Parses one entry s[0..n); returns NULL, or why it is malformed. */
const char *tp_calib_item_parse(const char *s, size_t n, struct tp_calib_item *it);

/* The whole list: NULL, or the reason of its first malformed entry. */
const char *tp_calib_list_check(const char *s, size_t n);

/* ---- GUID text ---- */

/* EFI GUID (mixed-endian, UEFI 2.10 Appendix A) as 36 lowercase characters. */
void tp_fmt_guid(struct tp_buf *b, const uint8_t guid[16]);
/* The inverse, either case; returns 0, or -1 when s[0..n) is not a GUID. */
int tp_guid_parse(const char *s, size_t n, uint8_t guid[16]);

/* ---- timeprobe.bootpart ---- */

enum tp_bootpart_kind { TP_BOOTPART_UNKNOWN, TP_BOOTPART_GPT, TP_BOOTPART_MBR };

struct tp_bootpart {
	enum tp_bootpart_kind kind;
	uint8_t guid[16];	/* GPT: the partition's unique GUID */
	uint32_t mbr_sig;	/* MBR: the disk signature (offset 440, LE) */
	uint32_t part;		/* MBR: partition number 1..255 */
};

void tp_bootpart_fmt(struct tp_buf *b, const struct tp_bootpart *bp);
/* Returns NULL, or why s[0..n) is not an identity ("unknown" is one). */
const char *tp_bootpart_parse(const char *s, size_t n, struct tp_bootpart *bp);
const char *tp_bootpart_check(const char *s, size_t n);
/*
 * The PARTUUID Linux shows for that partition (block/partitions/efi.c,
 * msdos.c): "<guid>" or "<sig, 8 hex>-<nn>". Nothing for unknown.
 */
void tp_bootpart_partuuid(struct tp_buf *b, const struct tp_bootpart *bp);


/* ---- timeprobe.firmware ---- */

/*
 * The system table's FirmwareVendor (UCS-2), FirmwareRevision and
 * Hdr.Revision (UEFI 2.10, 4.3). The vendor goes percent-encoded: bytes of
 * its UTF-8 outside [A-Za-z0-9._-] become %XX, so a space, a quote or a
 * control character can neither split the word nor reach a console raw.
 */
#define TP_FW_VENDOR_MAX 64	/* bytes of the decoded vendor, longer is cut */
#define TP_FW_WORD_MAX (8 + 1 + 8 + 1 + 3 * TP_FW_VENDOR_MAX)

struct tp_firmware {
	uint32_t revision;	/* FirmwareRevision, the vendor's own numbering */
	uint32_t uefi;		/* EFI_SYSTEM_TABLE.Hdr.Revision: major << 16 | minor */
	char vendor[TP_FW_VENDOR_MAX + 1];	/* UTF-8, NUL-terminated */
};

/* VENDOR: UCS-2, NUL-terminated or NULL; cut at TP_FW_VENDOR_MAX bytes of UTF-8. */
void tp_firmware_fmt(struct tp_buf *b, const uint16_t *vendor, uint32_t revision, uint32_t uefi);
/* Returns NULL, or why s[0..n) is not a firmware word's value. */
const char *tp_firmware_parse(const char *s, size_t n, struct tp_firmware *fw);
const char *tp_firmware_check(const char *s, size_t n);
/* "2.70" style UEFI revision text: major.minor/10[.minor%10] (UEFI 2.10, 4.2). */
void tp_fmt_uefi_revision(struct tp_buf *b, uint32_t revision);


/*
 * The most CPUs the stub's pre-OS work measures (the offsets and the scan)
 * and the suite reads from the stub's per-CPU records (common/stubcpu.h).
 * Below it the bound is the firmware's pool: the stub allocates its
 * per-CPU slots by the count and halves the count while AllocatePool
 * fails; the CPUs beyond are counted (aps_over_cap), not measured.
 */
#define TP_STUB_CPUS_MAX 4096

/* ---- timeprobe.tsc_preos ---- */

/*
 * The TSC offsets the stub measured before the OS (boot/mp.c), the BSP
 * against each AP, and IA32_TSC_ADJUST on each (docs/stub.md):
 *
 *   <bsp apic>:<adj>,<ap apic>:<lo>:<hi>:<rtt>:<samples>:<c>:<adj>,...
 *
 * The CPUs are named by their hardware ID in decimal: the APIC ID on x86;
 * on arm64 (boot/arm64/mp.c, counter CNTVCT_EL0, `adj` always `x`)
 * MPIDR_EL1's affinity fields packed by tp_mpidr_pack(). lo, hi: theta =
 * TSC_AP - TSC_BSP lies in [lo, hi]
 * ticks (common/tscsync.h; hi - lo <= rtt); rtt: the tightest round trip
 * in ticks; samples: round trips taken (>= 1); c: 1 when every round
 * trip's interval intersected, 0 when [lo, hi] is the tightest trip's own;
 * adj: IA32_TSC_ADJUST as a signed decimal, or `x` when the CPU has none
 * (CPUID.(EAX=07H,ECX=0):EBX[1] clear). At most TP_PREOS_MAX_APS entries
 * and TP_PREOS_WORD_MAX bytes: the formatter leaves out the entries past
 * the limit and says how many, the parser refuses a longer value.
 */
#define TP_PREOS_MAX_APS 63		/* the summary's entries; every pair has its own record */
#define TP_PREOS_WORD_MAX TP_HANDOFF_VALUE_MAX

struct tp_preos_adjust {
	int present;		/* the CPU has IA32_TSC_ADJUST */
	int64_t value;
};

struct tp_preos_pair {
	uint32_t apic;		/* the AP's APIC ID */
	int64_t lo_ticks, hi_ticks;
	uint64_t rtt_ticks, samples;
	int consistent;
	struct tp_preos_adjust adjust;
};

struct tp_preos {
	uint32_t bsp_apic;
	struct tp_preos_adjust bsp_adjust;
	size_t n;		/* pairs */
	struct tp_preos_pair pair[TP_PREOS_MAX_APS];
};

/*
 * An arm64 CPU's name in the word: MPIDR_EL1's Aff3 [39:32] moved to
 * [31:24] beside Aff2, Aff1, Aff0 [23:0] (Arm ARM D17.2.101); the MT and
 * U bits and RES0 dropped. Linux logs the same fields unpacked
 * ("Booted secondary processor 0x0000000001": MPIDR_HWID_BITMASK).
 */
static inline uint32_t tp_mpidr_pack(uint64_t mpidr)
{
	return (uint32_t)(((mpidr >> 8) & 0xff000000u) | (mpidr & 0xffffffu));
}

/* Writes p's value into b; returns how many pairs it left out for length. */
size_t tp_preos_fmt(struct tp_buf *b, const struct tp_preos *p);
/* Returns NULL, or why s[0..n) is not a tsc_preos value. */
const char *tp_preos_parse(const char *s, size_t n, struct tp_preos *p);
const char *tp_preos_check(const char *s, size_t n);


/* ---- timeprobe.hwlat_preos ---- */

/*
 * The summary of the stub's pre-OS latency scan (boot/hwlat.c,
 * common/hwlat.h), per CPU (docs/probes/hwlat.md):
 *
 *   <window_ms>:<thresh_us>:<system_wide>:<sw_max_ns>,<apic>:<cov_ppm>:<count>:<max_ns>:<total_ns>:<smi>,...
 *
 * window_ms, thresh_us: the scan's plan; system_wide: distinct gaps every
 * sampling CPU saw at once, sw_max_ns the longest of them; per CPU: its
 * APIC ID, coverage in ppm of the window (0..1000000), gaps above the
 * threshold, the longest and their sum in ns, and the SMIs counted by
 * IA32_SMI_COUNT across the window or `x` where it was not read. A CPU that
 * did not report within the time-out is `<apic>:-`. At most
 * TP_HWLAT_WORD_CPUS entries and TP_HWLAT_WORD_MAX bytes: the formatter
 * leaves out the entries past the limit and says how many, the parser
 * refuses a longer value.
 */
#define TP_HWLAT_WORD_CPUS 64		/* the summary's entries; every CPU has its own record */
#define TP_HWLAT_WORD_MAX TP_HANDOFF_VALUE_MAX

struct tp_hwlat_word_cpu {
	uint32_t apic;
	int reported;		/* 0: `<apic>:-`, the fields below are 0 */
	uint32_t coverage_ppm;
	uint64_t count, max_ns, total_ns;
	int smi_read;		/* 0: `x` */
	uint64_t smi;
};

struct tp_hwlat_word {
	uint32_t window_ms, thresh_us, system_wide;
	uint64_t system_wide_max_ns;
	size_t n;
	struct tp_hwlat_word_cpu cpu[TP_HWLAT_WORD_CPUS];
};

/* Writes w's value into b; returns how many CPU entries it left out for length. */
size_t tp_hwlat_word_fmt(struct tp_buf *b, const struct tp_hwlat_word *w);
/* Returns NULL, or why s[0..n) is not a hwlat_preos value. */
const char *tp_hwlat_word_parse(const char *s, size_t n, struct tp_hwlat_word *w);
const char *tp_hwlat_word_check(const char *s, size_t n);


/* ---- timeprobe.boot_tsc ---- */

/*
 * The stub's TSC at six moments of the boot (docs/stub.md, "Boot
 * timeline"): its entry (efi_main's first statement), the calibration's
 * start and end, the pre-OS scan's start and end (between them the TSC
 * offsets, boot/mp.c) and the hand-over (the command line complete, just
 * before LoadImage/StartImage), as decimals:
 *
 *   <entry>:<calib_start>:<calibrated>:<scan_start>:<scanned>:<handover>
 *
 * each >= the one before. The TSC counts from reset (Intel SDM vol. 3,
 * 18.17: set to 0 at RESET), so entry / tsc_hz is the firmware's time, as
 * systemd-boot computes LoaderTimeInitUSec.
 */
#define TP_BOOT_TSC_N 6
#define TP_BOOT_TSC_WORD_MAX (TP_BOOT_TSC_N * 20 - 1)

struct tp_boot_tsc {
	uint64_t entry, calib_start, calibrated, scan_start, scanned, handover;
};

void tp_boot_tsc_fmt(struct tp_buf *b, const struct tp_boot_tsc *t);
const char *tp_boot_tsc_parse(const char *s, size_t n, struct tp_boot_tsc *t);
const char *tp_boot_tsc_check(const char *s, size_t n);

#endif
