// SPDX-License-Identifier: MIT
/*
 * The arm64 stub's per-CPU step (mp.h's interface; x86's is mp.c): not
 * measured yet. AAVMF offers no EFI_MP_SERVICES_PROTOCOL; reaching the other
 * CPUs before the OS needs PSCI CPU_ON from the stub (docs/arm64.md). One
 * stub_tscsync record says so; nothing is handed over.
 */
#include <efi.h>
#include <efilib.h>

#include "../mp.h"

void tp_mp_tscsync(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t tsc_hz,
		   struct tp_mp_report *rep)
{
	struct tp_rec *r;

	(void)st;
	(void)tsc_hz;
	rep->measured = 0;
	rep->left_out = 0;
	rep->word[0] = 0;
	r = tp_con_rec(con, "stub_tscsync");
	tp_rec_str(r, "what", "summary");
	tp_rec_bool(r, "absent", 1);
	tp_rec_str(r, "reason", "arm64: the per-CPU counter check before the OS "
				"(PSCI CPU_ON) is not built yet");
	tp_con_emit(con);
}
