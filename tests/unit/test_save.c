// SPDX-License-Identifier: MIT
/* Partition identity from the stub, and the result file sequence. */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../../userland/save.h"

int main(void)
{
	char out[64];
	static const char *const names[] = { ".", "..", "0001-1a2b3c4d.tp1", "0012-ffffffff.tp1",
		"0003-1a2b3c4d.tp1.tmp", "notes.txt", "99x-bad.tp1" };
	static const char *const none[] = { ".", ".." };

	ok(!bootpart_to_partuuid("gpt:0FC63DAF-8483-4772-8E79-3D69D8477DE4", out, sizeof(out)), "gpt accepted");
	is_str(out, "0fc63daf-8483-4772-8e79-3d69d8477de4", "gpt lower-cased as the kernel shows PARTUUID");
	ok(!bootpart_to_partuuid("mbr:1a2b3c4d:1", out, sizeof(out)), "mbr accepted");
	is_str(out, "1a2b3c4d-01", "mbr signature-partition as the kernel shows PARTUUID");
	ok(bootpart_to_partuuid("gpt:0fc63daf-8483-4772-8e79-3d69d8477de", out, sizeof(out)), "short guid refused");
	ok(bootpart_to_partuuid("gpt:0fc63daf+8483-4772-8e79-3d69d8477de4", out, sizeof(out)), "bad separator refused");
	ok(bootpart_to_partuuid("mbr:1a2b3c4d:0", out, sizeof(out)), "partition 0 refused");
	ok(bootpart_to_partuuid("mbr:1a2b3c4d:1x", out, sizeof(out)), "trailing garbage refused");
	ok(bootpart_to_partuuid("usb:1", out, sizeof(out)), "unknown scheme refused");
	is_int(next_sequence(names, sizeof(names) / sizeof(names[0])), 13, "next after the largest, whatever the order");
	is_int(next_sequence(none, 2), 1, "first run is 1");

	/* A GPT header and two entries, laid out as UEFI 2.10 5.3 says */
	{
		uint8_t hdr[512] = "EFI PART", ent[2 * 128] = { 0 }, mbr[512] = { 0 };
		/* 0fc63daf-8483-4772-8e79-3d69d8477de4 on disk: first three fields little-endian */
		static const uint8_t guid[16] = { 0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
						  0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 };
		struct gpt_layout l;
		char text[37];

		hdr[72] = 2;	/* entries at LBA 2 */
		hdr[80] = 2;	/* two entries */
		hdr[84] = 128;	/* of 128 bytes */
		memcpy(ent + 128 + 16, guid, 16);
		guid_to_text(guid, text);
		is_str(text, "0fc63daf-8483-4772-8e79-3d69d8477de4", "on-disk GUID to text (mixed endian)");
		ok(!gpt_header_parse(hdr, sizeof(hdr), &l) && l.entries_lba == 2 && l.nentries == 2 &&
			   l.entry_size == 128, "GPT header parsed");
		is_int(gpt_find(ent, &l, "0FC63DAF-8483-4772-8E79-3D69D8477DE4"), 2, "the second entry is partition 2");
		is_int(gpt_find(ent, &l, "00000000-8483-4772-8e79-3d69d8477de4"), 0, "an unknown GUID is not found");
		hdr[0] = 'X';
		ok(gpt_header_parse(hdr, sizeof(hdr), &l) == -1, "no EFI PART signature: not a GPT");
		mbr[440] = 0x4d; mbr[441] = 0x3c; mbr[442] = 0x2b; mbr[443] = 0x1a;
		mbr[510] = 0x55; mbr[511] = 0xaa;
		is_int(mbr_matches(mbr, "1a2b3c4d-03"), 3, "MBR signature matches, partition 3");
		is_int(mbr_matches(mbr, "1a2b3c4e-01"), 0, "another MBR signature");
		mbr[511] = 0;
		is_int(mbr_matches(mbr, "1a2b3c4d-03"), 0, "no boot signature: not an MBR");
	}
	return tap_done();
}
