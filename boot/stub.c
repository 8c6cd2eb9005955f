// SPDX-License-Identifier: MIT
/*
 * timeprobe's UEFI stub (BOOTX64.EFI): efi_main, the order of everything it
 * does. It reports the firmware, finds its own image and volume, takes the
 * user's line (cmdload.c, spcrcon.c, cmdbuild.c, initrd.c), calibrates the
 * counter and runs the pre-OS steps (tsc.c, mp.c, hwlat.c or arm64/), hands
 * over, and starts \EFI\timeprobe\vmlinuz (file mode) or, built as the
 * single file timeprobe.efi, the kernel and initramfs carried in its own
 * .linux and .initrd sections (kernel.c). See docs/stub.md. Everything that
 * can be computed without firmware lives in calib.c, cmdfile.c, cmdline.c,
 * devpath.c, efitext.c, ucs2.c, pe.c, spcr.c and common/ and is tested on
 * the host.
 */
#include <efi.h>
#include <efilib.h>

#include "../common/announce.h"
#include "../common/buf.h"
#include "../common/handoff.h"
#include "../common/record.h"
#include "arch.h"
#include "cmdbuild.h"
#include "cmdload.h"
#include "devpath.h"
#include "efitext.h"
#include "kernel.h"
#include "options.h"
#include "spcrcon.h"
#include "stub.h"

#define TP_STUB_VERSION "0.1.0"
/* How long an error stays on screen before we return to the firmware. */
#define TP_ERROR_PAUSE_US (5 * 1000 * 1000)

static void stub_record(struct tp_stub *s)
{
	char vendor[128], rev[16];
	struct tp_buf b;
	struct tp_rec *r;
	size_t i;

	for (i = 0; s->st->FirmwareVendor && s->st->FirmwareVendor[i] && i + 1 < sizeof(vendor); i++) {
		CHAR16 c = s->st->FirmwareVendor[i];

		vendor[i] = c < 0x80 ? (char)c : '?';
	}
	vendor[i] = 0;
	tp_buf_init(&b, rev, sizeof(rev));
	tp_fmt_uefi_revision(&b, s->st->Hdr.Revision);

	r = tp_con_rec(&s->con, "stub");
	tp_rec_str(r, "version", TP_STUB_VERSION);
	tp_rec_str(r, "firmware_vendor", vendor);
	tp_rec_uint(r, "firmware_revision", s->st->FirmwareRevision);
	tp_rec_str(r, "uefi_revision", rev);
	tp_rec_bool(r, "conout_serial", s->con.conout_serial);
	tp_buf_init(&b, s->firmware, sizeof(s->firmware));
	tp_firmware_fmt(&b, (const uint16_t *)s->st->FirmwareVendor, s->st->FirmwareRevision,
			s->st->Hdr.Revision);
	tp_rec_bool(r, "serial_io", s->con.serial || s->con.rec_serial);
	tp_rec_uint(r, "conout_columns", s->con.columns);
	tp_con_emit(&s->con);
}

/* The bootpart value of its file: UEFI 2.10, 10.3.5.1 Hard Drive Media Device Path */
static void find_bootpart(struct tp_stub *s)
{
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(s->li->DeviceHandle);
	struct tp_hd_node hd;
	struct tp_buf b;

	tp_buf_init(&b, s->bootpart, sizeof(s->bootpart));
	if (dp && tp_devpath_find_hd(dp, DevicePathSize(dp), &hd) == 0)
		tp_bootpart_format(&b, &hd);
	else
		tp_buf_puts(&b, "unknown");
}

/*
 * Single-file mode: the stub's own .linux, .initrd and .cmdline sections
 * (UEFI 2.10, 9.1: LoadedImage->ImageBase/ImageSize is our image as loaded).
 */
static void find_payload(struct tp_stub *s)
{
	const char *why;
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	if (tp_payload_find(s->li->ImageBase, s->li->ImageSize, TP_PE_LOADED, &s->pl, &why) < 0) {
		tp_buf_init(&b, m, sizeof(m));
		tp_buf_puts(&b, "WARNING: cannot read the stub's own PE sections (");
		tp_buf_puts(&b, why);
		tp_buf_puts(&b, "): file mode");
		tp_con_msg(&s->con, m);
		r = tp_con_rec(&s->con, "stub_warning");
		tp_rec_str(r, "what", "pe_sections");
		tp_rec_str(r, "reason", why);
		tp_con_emit(&s->con);
		s->pl = (struct tp_payload){ 0 };
	}
	s->embedded = s->pl.kernel.data != NULL;
	tp_buf_init(&b, m, sizeof(m));
	if (!s->embedded) {
		tp_buf_puts(&b, "file mode: kernel " TP_KERNEL_PATH);
	} else {
		tp_buf_puts(&b, "single-file mode: embedded kernel ");
		tp_buf_putu(&b, s->pl.kernel.size);
		tp_buf_puts(&b, " bytes, initramfs ");
		tp_buf_putu(&b, s->pl.initrd.size);
		tp_buf_puts(&b, " bytes, command line ");
		tp_buf_putu(&b, s->pl.cmdline.size);
		tp_buf_puts(&b, " bytes");
	}
	tp_con_msg(&s->con, m);
}

/*
 * The TSC offsets of the APs against the BSP before the OS (mp.c), after
 * the calibration (its figure sizes the time-outs).
 */
static void preos_tscsync(struct tp_stub *s)
{
	tp_con_msg(&s->con, "measuring the " TP_ARCH_COUNTER " offsets between the CPUs" TP_ARCH_MP_VIA);
	tp_mp_tscsync(&s->con, s->st, s->tsc.tsc_hz, &s->mp);
}

/*
 * The pre-OS latency scan on every CPU (boot/hwlat.c): its window is
 * timeprobe.hwlat_ms= or the profile's (1 s quick, 10 s full).
 */
static void preos_hwlat(struct tp_stub *s)
{
	struct tp_hwlat_ref ref;
	uint32_t window_ms = tp_opt_u32(&s->con, s->user, TPW_HWLAT_MS);

	if (window_ms == (uint32_t)-1)
		window_ms = tp_opt_quick(s->user) ? TP_HWLAT_MS_QUICK : TP_HWLAT_MS_FULL;
	if (window_ms) {
		char line[80];
		struct tp_buf b;

		/* the window, the APs' start, their return and the firmware's word */
		tp_buf_init(&b, line, sizeof(line));
		tp_announce(&b, "pre-OS latency scan on every CPU",
			    tp_hwlat_limit_s(window_ms, s->mp.cpus));
		tp_con_msg(&s->con, line);
	}
	tp_tsc_scan_ref(&s->tsc, &ref);
	tp_hwlat_scan(s->st, s->tsc.tsc_hz, window_ms,
		      tp_opt_u32(&s->con, s->user, TPW_HWLAT_THRESH_US),
		      tp_opt_u32(&s->con, s->user, TPW_HWLAT_STUCK) == 1, &ref, &s->hwlat);
	tp_tsc_scan_ref_end();
	tp_hwlat_say(&s->con, &s->hwlat);
}

/*
 * The stub_handoff record, stamped with the hand-over's counter: the values
 * PID 1 takes from the stub's file alone (common/stubfile.h), under the
 * contract's names; the calibration per reference and the per-CPU figures
 * are records of their own.
 */
static void say_handoff(struct tp_stub *s)
{
	struct tp_stub_values v = {
		.tsc_hz = s->tsc.tsc_hz,
		.tsc_ref = s->tsc.tsc_hz ? s->tsc.chosen : NULL,
		.bootpart = s->bootpart,
		.firmware = s->firmware,
		.boot_tsc = s->boot_tsc_word,
	};
	struct tp_buf b;

	s->boot_tsc.handover = tp_counter();
	tp_buf_init(&b, s->boot_tsc_word, sizeof(s->boot_tsc_word));
	tp_boot_tsc_fmt(&b, &s->boot_tsc);
	tp_stub_handoff(tp_con_rec(&s->con, TP_STUB_HANDOFF), &v);
	tp_con_emit(&s->con);
}

/*
 * The stub's image, its volume (none: network boot, fine in single-file
 * mode) and its own sections; what it runs from, said.
 */
static EFI_STATUS find_self(struct tp_stub *s)
{
	EFI_STATUS status;

	status = uefi_call_wrapper(BS->HandleProtocol, 3, s->image, &LoadedImageProtocol,
				   (void **)&s->li);
	if (EFI_ERROR(status)) {
		tp_con_error(&s->con, "stub_image", "no LoadedImage protocol on the stub", NULL, status);
		return status;
	}
	find_bootpart(s);
	find_payload(s);
	s->vol.root = LibOpenRoot(s->li->DeviceHandle);
	if (!s->vol.root && !s->embedded) {
		tp_con_error(&s->con, "volume_open", "cannot open the stub's own volume for",
			     TP_KERNEL_PATH, EFI_NOT_FOUND);
		return EFI_NOT_FOUND;
	}
	if (!s->vol.root)
		tp_con_msg(&s->con, "no file system on the boot device (network boot?): "
				    "no " TP_CMDLINE_PATH " can override the embedded line");
	return EFI_SUCCESS;
}

/*
 * The user's line, Linux's serial console added (again if the built-in
 * line replaced the user's), the initrd= words taken off, the words past
 * init's limits dropped.
 */
static void user_line(struct tp_stub *s)
{
	tp_cmd_load(s);
	tp_spcr_console(&s->con, s->st, s->user);
	if (tp_cmd_check_user(s))
		tp_spcr_console(&s->con, s->st, s->user);
	tp_initrd_take(s);
	tp_cmd_cap_init(s);
}

/* The calibration, the per-CPU offsets and the latency scan, each between milestones. */
static void preos(struct tp_stub *s)
{
	uint32_t rounds, ms;

	tp_opt_skew(&s->con, s->user, &s->tsc.skew);
	rounds = tp_opt_u32(&s->con, s->user, TPW_CALIB_ROUNDS);
	ms = tp_opt_u32(&s->con, s->user, TPW_CALIB_MS);
	s->boot_tsc.calib_start = tp_counter();
	tp_tsc_calibrate(&s->con, s->st, rounds, ms, &s->tsc);
	s->boot_tsc.calibrated = tp_counter();
	preos_tscsync(s);
	s->boot_tsc.scan_start = tp_counter();
	preos_hwlat(s);
	s->boot_tsc.scanned = tp_counter();
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	uint64_t entry_tsc = tp_counter();	/* first: the boot timeline's stub entry */
	struct tp_stub *s;
	EFI_STATUS status;

	InitializeLib(image, st);
	/*
	 * ~45 KiB of buffers, from the pool: neither on the firmware's stack
	 * nor as zeros in the file (a static lands in .data, and in every
	 * copy of the single EFI file)
	 */
	s = AllocateZeroPool(sizeof(*s));
	if (!s) {
		Print(L"timeprobe: stub: out of memory for its %d bytes of buffers\r\n", (int)sizeof(*s));
		return EFI_OUT_OF_RESOURCES;
	}
	s->boot_tsc.entry = entry_tsc;
	s->image = image;
	s->st = st;
	tp_con_init(&s->con, st);
	tp_con_msg(&s->con, "stub " TP_STUB_VERSION);
	stub_record(s);
	status = find_self(s);
	if (!EFI_ERROR(status)) {
		user_line(s);
		preos(s);
		say_handoff(s);
		status = tp_cmd_build(s);
	}
	if (!EFI_ERROR(status))
		status = tp_kernel_boot(s);
	tp_con_msg(&s->con, "returning to the firmware in 5 s");
	uefi_call_wrapper(BS->Stall, 1, TP_ERROR_PAUSE_US);
	return status;
}
