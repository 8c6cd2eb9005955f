// SPDX-License-Identifier: MIT
/* The boot partition from the stub's device path; see devpath.h. EFI-free. */
#include "devpath.h"
#include "../common/le.h"


/* UEFI 2.10, 10.3.1 Generic Device Path Structures */
#define DP_TYPE_MEDIA 0x04
#define DP_MEDIA_HARDDRIVE 0x01
#define DP_TYPE_END 0x7f
#define DP_END_ENTIRE 0xff
#define DP_HD_LEN 42

int tp_devpath_find_hd(const void *dp, size_t max_len, struct tp_hd_node *hd)
{
	const uint8_t *p = dp;
	size_t off = 0;
	int found = 0;

	while (p && off + 4 <= max_len) {
		uint8_t type = p[off], sub = p[off + 1];
		uint16_t len = (uint16_t)(p[off + 2] | p[off + 3] << 8);

		if (type == DP_TYPE_END && sub == DP_END_ENTIRE)
			return found ? 0 : -1;
		if (len < 4 || off + len > max_len)
			return -1;
		if (type == DP_TYPE_MEDIA && sub == DP_MEDIA_HARDDRIVE && len >= DP_HD_LEN) {
			const uint8_t *n = p + off;

			hd->part_number = le32(n + 4);
			hd->part_start = le64(n + 8);
			hd->part_size = le64(n + 16);
			for (int i = 0; i < 16; i++)
				hd->signature[i] = n[24 + i];
			hd->mbr_type = n[40];
			hd->sig_type = n[41];
			found = 1;
		}
		off += len;
	}
	return -1;
}

void tp_bootpart_format(struct tp_buf *b, const struct tp_hd_node *hd)
{
	struct tp_bootpart bp = { .kind = TP_BOOTPART_UNKNOWN };

	if (hd->sig_type == 2) {
		bp.kind = TP_BOOTPART_GPT;
		for (int i = 0; i < 16; i++)
			bp.guid[i] = hd->signature[i];
	} else if (hd->sig_type == 1) {
		/* the MBR disk signature, offset 0x1b8 of the MBR, as a LE u32 */
		bp.kind = TP_BOOTPART_MBR;
		bp.mbr_sig = le32(hd->signature);
		bp.part = hd->part_number;
	}
	tp_bootpart_fmt(b, &bp);
}
