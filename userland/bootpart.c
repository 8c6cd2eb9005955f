// SPDX-License-Identifier: MIT
/* Pure helpers of save.c: the partition identity and partition tables. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "save.h"
#include "../common/handoff.h"
#include "../common/le.h"

int bootpart_to_partuuid(const char *bp, char *out, size_t len)
{
	struct tp_bootpart id;
	struct tp_buf b;

	/* the one parser of the stub's word (common/handoff.c) */
	if (tp_bootpart_parse(bp, strlen(bp), &id) || id.kind == TP_BOOTPART_UNKNOWN)
		return -1;
	tp_buf_init(&b, out, len);
	tp_bootpart_partuuid(&b, &id);
	return b.overflow ? -1 : 0;
}

const char *bootpart_save_where(const struct options *o, const struct stub_handoff *st,
				struct save_target *t)
{
	struct tp_buf b;

	*t = (struct save_target){ 0 };
	if (o->save == SAVE_OFF)
		return "timeprobe.save=off";
	if (o->save_to[0]) {
		t->named = 1;
		if (bootpart_to_partuuid(o->save_to, t->partuuid, sizeof(t->partuuid)))
			return "timeprobe.save_to= names no partition";
		return 0;
	}
	if (!st->have_bootpart)
		return "no stub file (stub.tp1) named the partition the stub booted from; "
		       "name one with timeprobe.save_to=gpt:<PARTUUID>";
	if (st->bootpart.kind == TP_BOOTPART_UNKNOWN)
		return "booted from a device without a partition (network?); "
		       "name one with timeprobe.save_to=gpt:<PARTUUID>";
	tp_buf_init(&b, t->partuuid, sizeof(t->partuuid));
	tp_bootpart_partuuid(&b, &st->bootpart);
	/* OVMF and others report a CD's El Torito image as an MBR without a signature */
	if (!strncmp(t->partuuid, "00000000-", 9)) {
		t->partuuid[0] = 0;
		return "booted from a device without a disk signature (a CD or an ISO image); "
		       "name a partition with timeprobe.save_to=gpt:<PARTUUID>";
	}
	return 0;
}

int bootpart_image_id_matches(const char *text, size_t n, const char *partuuid)
{
	size_t len = strlen(partuuid);

	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
		n--;
	return len && n == len && !strncasecmp(text, partuuid, len);
}

void bootpart_guid_to_text(const uint8_t g[16], char out[37])
{
	struct tp_buf b;

	tp_buf_init(&b, out, 37);
	tp_fmt_guid(&b, g);
}

int bootpart_gpt_header_parse(const uint8_t *hdr, size_t len, struct gpt_layout *out)
{
	/* UEFI 2.10, 5.3.2 GPT Header */
	if (len < 92 || memcmp(hdr, "EFI PART", 8))
		return -1;
	out->entries_lba = le64(hdr + 72);
	out->nentries = le32(hdr + 80);
	out->entry_size = le32(hdr + 84);
	if (out->entry_size < 128 || out->entry_size > 4096 || out->nentries == 0 || out->nentries > 1024)
		return -1;
	return 0;
}

int bootpart_gpt_find(const uint8_t *entries, const struct gpt_layout *l, const char *partuuid)
{
	char text[37];

	for (uint32_t i = 0; i < l->nentries; i++) {
		const uint8_t *e = entries + (size_t)i * l->entry_size;

		/* UEFI 2.10, 5.3.3 GPT Partition Entry: unique GUID at offset 16 */
		bootpart_guid_to_text(e + 16, text);
		if (!strcasecmp(text, partuuid))
			return (int)i + 1;
	}
	return 0;
}

int bootpart_mbr_matches(const uint8_t *sector0, const char *partuuid)
{
	char sig[16];

	/* The disk signature at offset 440 and the 0x55AA boot signature. */
	if (sector0[510] != 0x55 || sector0[511] != 0xaa)
		return 0;
	snprintf(sig, sizeof(sig), "%08x-", le32(sector0 + 440));
	return !strncasecmp(sig, partuuid, 9) ? (int)strtol(partuuid + 9, 0, 16) : 0;
}
