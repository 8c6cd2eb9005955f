/* SPDX-License-Identifier: MIT */
/*
 * The line the kernel gets (docs/stub.md, "Command line hand-off"): the
 * user's words (cmdload.h) checked, with the built-in line in their place
 * when they would not boot (cmdline.h, tp_cmdline_final), the words past
 * what Linux hands init dropped, the stub's words added, cut to length,
 * made the kernel's UCS-2 LoadOptions; each change said, the result in the
 * stub_cmdline record.
 */
#ifndef TP_BOOT_CMDBUILD_H
#define TP_BOOT_CMDBUILD_H

#include <efi.h>

struct tp_stub;

/* 1 when the built-in line replaced s->user (a cmdline_fallback warning says why). */
int tp_cmd_check_user(struct tp_stub *s);

/* s->user without the words past Linux's 31 init arguments and 30 environment entries. */
void tp_cmd_cap_init(struct tp_stub *s);

/* s->cmdline and s->cmdline16 from s->user and the calibration; checked, said. */
EFI_STATUS tp_cmd_build(struct tp_stub *s);

#endif
