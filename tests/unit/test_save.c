// SPDX-License-Identifier: MIT
/* Partition identity from the stub, and the result file sequence. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../userland/save.h"

static void touch(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int file_is(const char *dir, const char *name, const char *text)
{
	char path[512], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

/* The sequence over a directory of more runs than the old 1024-entry look. */
static void sequence_tests(void)
{
	char dir[] = "/tmp/tp-save-test.XXXXXX", name[64], cmd[128];

	is_int(seqfile_sequence_of("0012-ffffffff.tp1"), 12, "sequence of a result name");
	is_int(seqfile_sequence_of("notes.txt") + seqfile_sequence_of("99x-bad.tp1") + seqfile_sequence_of("-1.tp1"), 0,
	       "names without one give 0");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	is_int(seqfile_next(dir), 1, "first run is 1");
	for (int i = 1; i <= 1500; i++) {
		snprintf(name, sizeof(name), "%04d-%08x.tp1", i, i % 7 ? 0x1a2b3c4d : 0xffffffff);
		touch(dir, name, "old");
	}
	touch(dir, "notes.txt", "x");
	touch(dir, "writing.tmp", "x");
	is_int(seqfile_next(dir), 1501, "next after the largest of 1500 runs");

	touch(dir, "new.tmp", "new");
	ok(seqfile_rename(dir, "/dev/null/none", "1a2b3c4d", 1501, name, sizeof(name)) < 0,
	   "a missing temporary file is an error");
	{
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s/new.tmp", dir);
		/* as if the scan had missed run 1500: the rename must not replace it */
		ok(!seqfile_rename(dir, tmp, "1a2b3c4d", 1500, name, sizeof(name)), "renamed");
	}
	is_str(name, "1501-1a2b3c4d.tp1", "an existing name is skipped, the next one taken");
	ok(file_is(dir, "1500-1a2b3c4d.tp1", "old"), "the old result is untouched");
	ok(file_is(dir, "1501-1a2b3c4d.tp1", "new"), "the new result is there");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(!system(cmd), "clean up");
}

/* Where a run may save: the stub's partition (proven later by its id) or
 * one the user named; never a guess for an ISO, a network boot or no stub. */
static void where_tests(void)
{
	static const char guid[] = "0fc63daf-8483-4772-8e79-3d69d8477de4";
	static const struct {
		const char *bootpart, *save_to, *why_has, *partuuid;
		int named;
	} c[] = {
		{ "gpt:0FC63DAF-8483-4772-8E79-3D69D8477DE4", "", 0, guid, 0 },
		{ "mbr:1a2b3c4d:2", "", 0, "1a2b3c4d-02", 0 },
		{ "mbr:00000000:1", "", "a CD or an ISO image", 0, 0 },
		{ "unknown", "", "network", 0, 0 },
		{ "", "", "no stub file (stub.tp1)", 0, 0 },
		{ "mbr:00000000:1", "gpt:0fc63daf-8483-4772-8e79-3d69d8477de4", 0, guid, 1 },
		{ "", "mbr:1a2b3c4d:1", 0, "1a2b3c4d-01", 1 },
		{ "gpt:0fc63daf-8483-4772-8e79-3d69d8477de4", "unknown", "names no partition", 0, 1 },
	};
	struct options o;
	struct stub_handoff st;
	struct save_target t;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *why;

		options_defaults(&o);
		st = (struct stub_handoff){ 0 };
		st.have_bootpart = c[i].bootpart[0] &&
				   !tp_bootpart_parse(c[i].bootpart, strlen(c[i].bootpart), &st.bootpart);
		snprintf(o.save_to, sizeof(o.save_to), "%s", c[i].save_to);
		why = bootpart_save_where(&o, &st, &t);
		ok(c[i].why_has ? why && strstr(why, c[i].why_has) && !t.partuuid[0] :
				  !why && !strcmp(t.partuuid, c[i].partuuid) && t.named == c[i].named,
		   "bootpart=%s save_to=%s: %s", c[i].bootpart, c[i].save_to,
		   why ? why : t.partuuid);
	}
	options_defaults(&o);
	snprintf(o.save_to, sizeof(o.save_to), "%s", c[0].bootpart);
	o.save = SAVE_OFF;
	ok(bootpart_save_where(&o, &st, &t) && strstr(bootpart_save_where(&o, &st, &t), "save=off"),
	   "save=off wins over save_to");

	ok(bootpart_image_id_matches("0FC63DAF-8483-4772-8E79-3D69D8477DE4\r\n", 38, guid),
	   "image id: the GUID in any case, line end aside");
	ok(!bootpart_image_id_matches("0fc63daf-8483-4772-8e79-3d69d8477de", 35, guid), "image id: a shorter one differs");
	ok(!bootpart_image_id_matches("0fc63daf-8483-4772-8e79-3d69d8477de4 x", 38, guid), "image id: more text differs");
	ok(!bootpart_image_id_matches("", 0, ""), "image id: nothing names nothing");
}

int main(void)
{
	char out[64];

	ok(!bootpart_to_partuuid("gpt:0FC63DAF-8483-4772-8E79-3D69D8477DE4", out, sizeof(out)), "gpt accepted");
	is_str(out, "0fc63daf-8483-4772-8e79-3d69d8477de4", "gpt lower-cased as the kernel shows PARTUUID");
	ok(!bootpart_to_partuuid("mbr:1a2b3c4d:1", out, sizeof(out)), "mbr accepted");
	is_str(out, "1a2b3c4d-01", "mbr signature-partition as the kernel shows PARTUUID");
	ok(bootpart_to_partuuid("gpt:0fc63daf-8483-4772-8e79-3d69d8477de", out, sizeof(out)), "short guid refused");
	ok(bootpart_to_partuuid("gpt:0fc63daf+8483-4772-8e79-3d69d8477de4", out, sizeof(out)), "bad separator refused");
	ok(bootpart_to_partuuid("mbr:1a2b3c4d:0", out, sizeof(out)), "partition 0 refused");
	ok(bootpart_to_partuuid("mbr:1a2b3c4d:1x", out, sizeof(out)), "trailing garbage refused");
	ok(bootpart_to_partuuid("usb:1", out, sizeof(out)), "unknown scheme refused");
	sequence_tests();
	where_tests();

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
		bootpart_guid_to_text(guid, text);
		is_str(text, "0fc63daf-8483-4772-8e79-3d69d8477de4", "on-disk GUID to text (mixed endian)");
		ok(!bootpart_gpt_header_parse(hdr, sizeof(hdr), &l) && l.entries_lba == 2 && l.nentries == 2 &&
			   l.entry_size == 128, "GPT header parsed");
		is_int(bootpart_gpt_find(ent, &l, "0FC63DAF-8483-4772-8E79-3D69D8477DE4"), 2, "the second entry is partition 2");
		is_int(bootpart_gpt_find(ent, &l, "00000000-8483-4772-8e79-3d69d8477de4"), 0, "an unknown GUID is not found");
		hdr[0] = 'X';
		ok(bootpart_gpt_header_parse(hdr, sizeof(hdr), &l) == -1, "no EFI PART signature: not a GPT");
		mbr[440] = 0x4d; mbr[441] = 0x3c; mbr[442] = 0x2b; mbr[443] = 0x1a;
		mbr[510] = 0x55; mbr[511] = 0xaa;
		is_int(bootpart_mbr_matches(mbr, "1a2b3c4d-03"), 3, "MBR signature matches, partition 3");
		is_int(bootpart_mbr_matches(mbr, "1a2b3c4e-01"), 0, "another MBR signature");
		mbr[511] = 0;
		is_int(bootpart_mbr_matches(mbr, "1a2b3c4d-03"), 0, "no boot signature: not an MBR");
	}
	return tap_done();
}
