// SPDX-License-Identifier: MIT
/* Firmware facts as text: UEFI revision, EFI status; see efitext.h. EFI-free. */
#include "efitext.h"

/* UEFI 2.10, Appendix D: error codes have the high bit set. */
static const char *const efi_errors[] = {
	[1] = "Load Error", [2] = "Invalid Parameter", [3] = "Unsupported",
	[4] = "Bad Buffer Size", [5] = "Buffer Too Small", [6] = "Not Ready",
	[7] = "Device Error", [8] = "Write Protected", [9] = "Out of Resources",
	[10] = "Volume Corrupted", [11] = "Volume Full", [12] = "No Media",
	[13] = "Media Changed", [14] = "Not Found", [15] = "Access Denied",
	[16] = "No Response", [17] = "No Mapping", [18] = "Timeout",
	[19] = "Not Started", [20] = "Already Started", [21] = "Aborted",
	[22] = "ICMP Error", [23] = "TFTP Error", [24] = "Protocol Error",
	[25] = "Incompatible Version", [26] = "Security Violation",
	[27] = "CRC Error", [28] = "End of Media", [31] = "End of File",
	[32] = "Invalid Language", [33] = "Compromised Data",
	[34] = "IP Address Conflict", [35] = "HTTP Error",
};

const char *tp_efi_status_str(uint64_t status)
{
	uint64_t code = status & ~(1ull << 63);

	if (status == 0)
		return "Success";
	if (!(status >> 63))
		return "Warning";
	if (code < sizeof(efi_errors) / sizeof(efi_errors[0]) && efi_errors[code])
		return efi_errors[code];
	return "Unknown Error";
}
