// SPDX-License-Identifier: MIT
/* Host tests of the GTDT parser (common/gtdt.c): synthetic tables with a GT
 * Block of two frames and an SBSA watchdog, none, and broken ones. TAP. */
#include <stdint.h>
#include <string.h>

#include "../../common/gtdt.h"
#include "putle.h"
#include "tap.h"

static uint8_t t[256];

/* A GTDT with n platform timer structures at offset 104, the whole length returned. */
static uint32_t table(int gt_block, int watchdog)
{
	uint32_t off = 104, n = 0;

	memset(t, 0, sizeof(t));
	memcpy(t, "GTDT", 4);
	memset(t + 36, 0xff, 8);	/* CntControlBase: not provided */
	memset(t + 80, 0xff, 8);	/* CntReadBase: not provided */
	if (gt_block) {
		t[off] = 0;
		t[off + 1] = 20 + 2 * 40;	/* header and two 40-byte frames */
		put32(t + off + 12, 2);
		off += 20 + 2 * 40;
		n++;
	}
	if (watchdog) {
		t[off] = 1;
		t[off + 1] = 28;
		off += 28;
		n++;
	}
	put32(t + 88, n);
	put32(t + 92, 104);
	put32(t + 4, off);
	return off;
}

int main(void)
{
	struct tp_gtdt g;
	const char *why;
	uint32_t len;

	len = table(0, 0);
	is_int(tp_gtdt_parse(t, len, &g, &why), 0, "QEMU virt's shape: no platform timer, parsed");
	is_int(g.platform_timers + g.gt_blocks + g.watchdogs, 0, "no platform timer: nothing counted");
	ok(g.cnt_read_base == UINT64_MAX, "CntReadBase all ones: not provided");

	len = table(1, 1);
	is_int(tp_gtdt_parse(t, len, &g, &why), 0, "a GT Block and a watchdog: parsed");
	is_int(g.gt_blocks, 1, "one GT Block");
	is_int(g.gt_frames, 2, "with two timer frames");
	is_int(g.watchdogs, 1, "one SBSA watchdog");

	len = table(1, 0);
	t[105] = 200;	/* a structure longer than the table */
	ok(tp_gtdt_parse(t, len, &g, &why) < 0 && why, "a structure past the table's end is refused: %s",
	   why ? why : "");
	len = table(0, 1);
	put32(t + 92, len + 8);
	ok(tp_gtdt_parse(t, len, &g, &why) < 0, "a platform timer offset past the end is refused");
	ok(tp_gtdt_parse(t, 60, &g, &why) < 0, "a table shorter than 96 bytes is refused");
	memcpy(t, "HPET", 4);
	ok(tp_gtdt_parse(t, len, &g, &why) < 0, "another table's signature is refused");
	return tap_done();
}
