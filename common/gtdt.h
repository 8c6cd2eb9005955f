/* SPDX-License-Identifier: MIT */
/*
 * The ACPI GTDT (ACPI 6.5, 5.2.25 Generic Timer Description Table): what
 * the firmware says of the Arm generic timer beyond the CPU's own registers,
 * namely the memory-mapped counter blocks (CNTControlBase, CNTReadBase, GT
 * Blocks and their frames) and SBSA generic watchdogs. Every one of them is
 * driven by the same system counter as CNTVCT_EL0 (a GT frame is a view of
 * it; the watchdog compares against it), so none is an independent
 * reference for CNTFRQ_EL0: the stub says so (boot/arm64/calib.c).
 * Freestanding, tested on the host (tests/unit/test_gtdt.c).
 */
#ifndef TP_COMMON_GTDT_H
#define TP_COMMON_GTDT_H

#include <stdint.h>

struct tp_gtdt {
	uint64_t cnt_control_base;	/* 0xFFFFFFFFFFFFFFFF or 0: not provided */
	uint64_t cnt_read_base;
	uint32_t platform_timers;	/* structures the table lists */
	uint32_t gt_blocks, gt_frames;	/* type 0, and their timer frames */
	uint32_t watchdogs;		/* type 1, SBSA generic watchdog */
	uint32_t unknown;		/* other types, skipped */
};

/* Parses a GTDT of len bytes. Returns 0, or negative with *why set. */
int tp_gtdt_parse(const void *gtdt, uint32_t len, struct tp_gtdt *g, const char **why);

#endif
