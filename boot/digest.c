// SPDX-License-Identifier: MIT
/* The stub's file handed over by its digest; see digest.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "../common/handoff.h"
#include "../common/sha256.h"
#include "../common/stubfile.h"
#include "digest.h"

/*
 * The SHA-256 of the stub's file into the volatile variable PID 1 checks it
 * by (common/stubfile.h, TP_STUB_DIGEST_VAR): any old one deleted first
 * (UEFI 2.10, 8.2 SetVariable: size 0 deletes; a variable of other
 * attributes could not be overwritten), then set anew. A failure is a
 * stub_error after the file (not in it); PID 1 then takes no stub value.
 */
void tp_digest_hand_over(struct tp_console *con)
{
	static CHAR16 name[] = L"" TP_STUB_DIGEST_VAR;
	const struct tp_guid *g = &tp_vendor_guid;
	EFI_GUID guid = { g->d1, g->d2, g->d3, { 0 } };
	uint8_t digest[TP_SHA256_LEN];
	char m[128];
	struct tp_buf b;
	EFI_STATUS status;

	for (int i = 0; i < 8; i++)
		guid.Data4[i] = g->d4[i];
	tp_sha256(con->kept, con->kept_len, digest);
	uefi_call_wrapper(RT->SetVariable, 5, name, &guid, 0, 0, NULL);
	status = uefi_call_wrapper(RT->SetVariable, 5, name, &guid, TP_STUB_DIGEST_ATTRS,
				   sizeof(digest), digest);
	if (EFI_ERROR(status)) {
		tp_con_error(con, "digest_variable", "cannot set the EFI variable",
			     TP_STUB_DIGEST_VAR "-" TP_VENDOR_GUID_STR, status);
		return;
	}
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "the stub's file: SHA-256 ");
	for (int i = 0; i < TP_SHA256_LEN; i++)
		tp_buf_puthex(&b, digest[i], 2);
	tp_buf_puts(&b, " in EFI variable " TP_STUB_DIGEST_VAR);
	tp_con_msg(con, m);
}
