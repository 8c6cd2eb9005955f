// SPDX-License-Identifier: MIT
/* Partition identity from the stub, and the result file sequence. */
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
	return tap_done();
}
