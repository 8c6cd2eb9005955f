/* SPDX-License-Identifier: MIT */
/*
 * The stub's records, handed to PID 1 as a file (docs/stub.md, "The
 * stub's file"). The stub serves the initramfs itself through
 * LINUX_EFI_INITRD_MEDIA_GUID and appends one newc cpio archive of its own
 * (Linux, Documentation/driver-api/early-userspace/buffer-format.rst:
 * concatenated archives unpack in order) holding TP_STUB_FILE: every TP1
 * record the stub printed, verbatim, each with its CRC. Among the last is
 * the TP_STUB_HANDOFF record, whose keys are the contract's rows the stub
 * alone writes (common/words.c: tsc_hz, tsc_ref, bootpart, firmware,
 * boot_tsc), each once, in the formats of common/handoff.h; the
 * calibration per reference is in its `calib` records, the per-CPU figures
 * in its common/stubcpu.h records. PID 1 reads that file once into typed
 * values (userland/stubread.h, the probes' ctx->stub), and only
 * when its SHA-256 is the one the stub handed over in a volatile
 * EFI variable (TP_STUB_DIGEST_VAR below): the stick can put a file of that
 * name in the initramfs (an initrd= archive), but it cannot set a variable
 * that lives only from this boot's SetVariable on. Freestanding C, built
 * by the stub and the suite; tests/unit/test_stubread.c, test_handoff.c
 * and test_stubtrust.c send values across.
 */
#ifndef TP_COMMON_STUBFILE_H
#define TP_COMMON_STUBFILE_H

#include <stddef.h>
#include <stdint.h>

#include "newc.h"
#include "record.h"
#include "recdecl.h"

/* Where the file is, as the cpio names it (no leading '/') and as PID 1 opens it. */
#define TP_STUB_DIR "run/timeprobe"
#define TP_STUB_FILE TP_STUB_DIR "/stub.tp1"
#define TP_STUB_FILE_PATH "/" TP_STUB_FILE

/* The records that carry the stub's values, by the contract's row names. */
#define TP_STUB_HANDOFF "stub_handoff"

/*
 * A `calib` record's keys, one per reference the stub tried (boot/console.c,
 * boot/tsc.c, boot/arm64/calib.c write them; userland/stubvals.c reads the
 * calibration back from them): a measured one has TP_CALIB_HZ with
 * TP_CALIB_SPREAD (rounds against a reference) or TP_CALIB_WINDOW_S (arm64's
 * RTC edges, whose TP_CALIB_BOUND is its spread); a nominal one (CPUID, the
 * hypervisor's leaf, CNTFRQ_EL0) has TP_CALIB_HZ alone.
 */
#define TP_CALIB_REC "calib"
#define TP_CALIB_REF "ref"
#define TP_CALIB_HZ "tsc_hz"
#define TP_CALIB_SPREAD "spread_ppm"
#define TP_CALIB_BOUND "bound_ppm"
#define TP_CALIB_WINDOW_S "window_s"
#define TP_CALIB_ABSENT "absent"

/*
 * Every record type the stub writes (boot/, tests/build/stub-types.t checks
 * the list against the code): PID 1 keeps no other type from the file.
 */
extern const char *const tp_stub_types[];
/* 1 when type[0..n) is one of tp_stub_types. */
int tp_stub_type(const char *type, size_t n);

/*
 * The project's EFI vendor GUID (made for timeprobe; no other vendor's) as
 * EFI_GUID lays it out (UEFI 2.10, Appendix A), and as efivarfs spells it.
 */
struct tp_guid {
	uint32_t d1;
	uint16_t d2, d3;
	uint8_t d4[8];
};
extern const struct tp_guid tp_vendor_guid;
#define TP_VENDOR_GUID_STR "f5816c5a-f5ca-480e-9437-68ae3d85e474"

/*
 * The SHA-256 of TP_STUB_FILE's data (32 bytes, common/sha256.h), under
 * tp_vendor_guid, set by the stub on every boot after deleting any old one,
 * with exactly these attributes: boot-service and runtime access, not
 * non-volatile (UEFI 2.10, 8.2 SetVariable), so no earlier boot and no
 * file can leave one behind. PID 1 reads it at TP_STUB_DIGEST_EFIVARFS:
 * efivarfs gives the attributes (4 bytes, little-endian) then the data
 * (Linux, Documentation/filesystems/efivarfs.rst), as systemd reads the
 * LoaderDevicePartUUID that systemd-stub sets the same way.
 */
#define TP_STUB_DIGEST_VAR "TimeprobeStubSha256"
#define TP_EFI_VARIABLE_NON_VOLATILE 0x1u
#define TP_EFI_VARIABLE_BOOTSERVICE_ACCESS 0x2u
#define TP_EFI_VARIABLE_RUNTIME_ACCESS 0x4u
#define TP_STUB_DIGEST_ATTRS (TP_EFI_VARIABLE_BOOTSERVICE_ACCESS | TP_EFI_VARIABLE_RUNTIME_ACCESS)
#define TP_EFIVARFS "/sys/firmware/efi/efivars"
#define TP_STUB_DIGEST_EFIVARFS TP_EFIVARFS "/" TP_STUB_DIGEST_VAR "-" TP_VENDOR_GUID_STR

/* The stub's values; NULL or "" (0 for tsc_hz) leaves a key out. */
struct tp_stub_values {
	uint64_t tsc_hz;
	const char *tsc_ref, *bootpart, *firmware, *boot_tsc;
};

/* The TP_STUB_HANDOFF record's members into r (begun by the caller). */
void tp_stub_handoff(struct tp_rec *r, const struct tp_stub_values *v);

/* ---- newc cpio (the kernel's usr/gen_init_cpio.c writes the same) ---- */

/* Bytes one entry takes: header and name padded to 4, data padded to 4. */
size_t tp_cpio_entry_size(const char *name, size_t data_len);
/* Bytes of the stub's archive holding a file of data_len bytes (its dirs, trailer). */
size_t tp_cpio_stub_size(size_t data_len);

struct tp_cpio {
	uint8_t *p;
	size_t cap, len;
	uint32_t ino;
	int overflow;		/* an entry did not fit: the archive is unusable */
};

void tp_cpio_init(struct tp_cpio *c, void *buf, size_t cap);
/* A directory (mode 0755) or a regular file (0444), owner 0, time 0. */
void tp_cpio_dir(struct tp_cpio *c, const char *name);
void tp_cpio_file(struct tp_cpio *c, const char *name, const void *data, size_t n);
/* The TRAILER!!! entry that ends the archive. */
void tp_cpio_end(struct tp_cpio *c);
/* The stub's whole archive: TP_STUB_DIR's two levels, TP_STUB_FILE with data, trailer. */
void tp_cpio_stub(struct tp_cpio *c, const void *data, size_t n);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key tp_stub_rec_keys[];

#endif
