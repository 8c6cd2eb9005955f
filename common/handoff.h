/* SPDX-License-Identifier: MIT */
/*
 * The formats of the values the stub hands to the suite in the
 * stub_handoff record of its file (common/stubfile.h), each with its one
 * formatter and its one parser (docs/stub.md, "The stub's file"):
 *   bootpart    gpt:<guid> | mbr:<8 hex>:<n> | unknown
 *   firmware    <FirmwareRevision, 8 hex>:<UEFI revision, 8 hex>:<vendor>
 *   boot_tsc    (below); GUID text, 8-4-4-4-12 lowercase hex
 *   (UEFI 2.10, Appendix A)
 * The calibration per reference and the per-CPU figures travel as records
 * of their own (`calib`, common/stubcpu.h), not as values. Freestanding C
 * (no libc), built by the stub and the suite; the parsers take text from
 * the stub's file, hostile until checked.
 */
#ifndef TP_COMMON_HANDOFF_H
#define TP_COMMON_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* ---- the calibration ---- */

#define TP_CALIB_REF_MAX 15	/* bytes of a reference name, [a-z0-9_] */
#define TP_CALIB_HZ_MIN 1000000LL	/* the bounds of the stub's tsc_hz */
#define TP_CALIB_HZ_MAX 100000000000LL

/*
 * Appends "ref:hz:spread_ppm" to a comma-separated list: the `calib` key of
 * the stub's calib_summary record and stub_warning calib_disagreement, and
 * the fingerprint's stub_tsc_calib (userland), each made from the stub's
 * `calib` records. No one parses it: the suite reads the records.
 */
void tp_calib_list_add(struct tp_buf *b, const char *ref, uint64_t hz, uint32_t spread_ppm);

/* NULL, or why s[0..n) is not a reference's name: [a-z0-9_], 1 to TP_CALIB_REF_MAX bytes. */
const char *tp_calib_ref_check(const char *s, size_t n);

/* ---- GUID text ---- */

/* EFI GUID (mixed-endian, UEFI 2.10 Appendix A) as 36 lowercase characters. */
void tp_fmt_guid(struct tp_buf *b, const uint8_t guid[16]);
/* The inverse, either case; returns 0, or -1 when s[0..n) is not a GUID. */
int tp_guid_parse(const char *s, size_t n, uint8_t guid[16]);

/* ---- bootpart ---- */

enum tp_bootpart_kind { TP_BOOTPART_UNKNOWN, TP_BOOTPART_GPT, TP_BOOTPART_MBR };

/* The largest MBR partition number Linux names (PARTUUID=SSSSSSSS-NN, NN in hex: 255). */
#define TP_MBR_PART_MAX 255

struct tp_bootpart {
	enum tp_bootpart_kind kind;
	uint8_t guid[16];	/* GPT: the partition's unique GUID */
	uint32_t mbr_sig;	/* MBR: the disk signature (offset 440, LE) */
	uint32_t part;		/* MBR: partition number 1..TP_MBR_PART_MAX */
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


/* ---- firmware ---- */

/*
 * The system table's FirmwareVendor (UCS-2), FirmwareRevision and
 * Hdr.Revision (UEFI 2.10, 4.3). The vendor goes percent-encoded: bytes of
 * its UTF-8 outside [A-Za-z0-9._-] become %XX, so a space, a quote or a
 * control character can neither split the value nor reach a console raw.
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
/* Returns NULL, or why s[0..n) is not a firmware value. */
const char *tp_firmware_parse(const char *s, size_t n, struct tp_firmware *fw);
const char *tp_firmware_check(const char *s, size_t n);
/* "2.70" style UEFI revision text: major.minor/10[.minor%10] (UEFI 2.10, 4.2). */
void tp_fmt_uefi_revision(struct tp_buf *b, uint32_t revision);


/* ---- boot_tsc ---- */

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
