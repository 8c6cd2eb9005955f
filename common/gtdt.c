// SPDX-License-Identifier: MIT
/* The ACPI GTDT; see gtdt.h. */
#include "gtdt.h"
#include "le.h"

/* ACPI 6.5, Table 5.121 (GTDT) and 5.123/5.126 (platform timer structures) */
#define GTDT_CNT_CONTROL_BASE 36
#define GTDT_CNT_READ_BASE 80
#define GTDT_PT_COUNT 88
#define GTDT_PT_OFFSET 92
#define GTDT_MIN_LEN 96
#define PT_TYPE_GT_BLOCK 0
#define PT_TYPE_WATCHDOG 1
#define GT_BLOCK_TIMER_COUNT 12
#define GT_BLOCK_MIN_LEN 20

/* One platform timer structure at t[off] of len bytes; 0 or negative. */
static int platform_timer(const uint8_t *t, uint32_t off, uint32_t len, struct tp_gtdt *g,
			  uint32_t *size, const char **why)
{
	if (len - off < 3) {
		*why = "GTDT platform timer structure beyond the table";
		return -4;
	}
	*size = (uint32_t)(t[off + 1] | t[off + 2] << 8);
	if (*size < 3 || *size > len - off) {
		*why = "GTDT platform timer structure length out of range";
		return -5;
	}
	if (t[off] == PT_TYPE_GT_BLOCK) {
		if (*size < GT_BLOCK_MIN_LEN) {
			*why = "GTDT GT Block structure too short";
			return -6;
		}
		g->gt_blocks++;
		g->gt_frames += le32(t + off + GT_BLOCK_TIMER_COUNT);
	} else if (t[off] == PT_TYPE_WATCHDOG) {
		g->watchdogs++;
	} else {
		g->unknown++;
	}
	return 0;
}

int tp_gtdt_parse(const void *gtdt, uint32_t len, struct tp_gtdt *g, const char **why)
{
	const uint8_t *t = gtdt;
	uint32_t off, size;

	*g = (struct tp_gtdt){ 0 };
	*why = 0;
	if (!t || len < GTDT_MIN_LEN || t[0] != 'G' || t[1] != 'T' || t[2] != 'D' || t[3] != 'T') {
		*why = "not a GTDT, or shorter than 96 bytes";
		return -1;
	}
	g->cnt_control_base = le64(t + GTDT_CNT_CONTROL_BASE);
	g->cnt_read_base = le64(t + GTDT_CNT_READ_BASE);
	g->platform_timers = le32(t + GTDT_PT_COUNT);
	off = le32(t + GTDT_PT_OFFSET);
	if (g->platform_timers && (off < GTDT_MIN_LEN || off > len)) {
		*why = "GTDT platform timer offset out of range";
		return -3;
	}
	for (uint32_t i = 0; i < g->platform_timers; i++) {
		int rc = platform_timer(t, off, len, g, &size, why);

		if (rc)
			return rc;
		off += size;
	}
	return 0;
}
