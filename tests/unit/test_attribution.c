// SPDX-License-Identifier: MIT
/*
 * The attribution's pure parts (userland/attribution.c) on recorded text:
 * /proc/stat's ctxt, MSR_SMI_COUNT reads as pread() returns them, and the
 * digit groups of its human line. Its /proc tables and SMI counts are
 * irqstat's (tests/unit/test_irqstat.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../userland/attribution.h"
#include "../../userland/msr.h"
#include "tap.h"

static void test_ctxt(void)
{
	uint64_t c = 0;

	ok(!attr_parse_ctxt("cpu  1 2 3\nintr 99 0 1\nctxt 362309014\nbtime 1764690000\n", &c) &&
	   c == 362309014, "ctxt from /proc/stat");
	ok(attr_parse_ctxt("cpu  1 2 3\nbtime 1\n", &c) == -EINVAL, "no ctxt line: -EINVAL");
	ok(attr_parse_ctxt("ctxt x\n", &c) == -EINVAL, "not a number: -EINVAL");
	ok(!attr_parse_ctxt("ctxt 5", &c) && c == 5, "last line without newline");
}

static void test_msr(void)
{
	/* 0x34 on a Xeon: EAX = 0x00000103 SMIs, EDX = 0 */
	unsigned char buf[8] = { 0x03, 0x01, 0, 0, 0x55, 0x55, 0, 0 };
	uint64_t c = 0;

	ok(!msr_decode(8, 0, buf, &c) && c == 0x555500000103ull, "8 bytes: EDX:EAX, little-endian");
	is_int(msr_decode(-1, EIO, buf, &c), -EIO, "rdmsr refused (#GP): -EIO");
	is_int(msr_decode(-1, EACCES, buf, &c), -EACCES, "not root: -EACCES");
	is_int(msr_decode(4, 0, buf, &c), -EIO, "short read: -EIO");
}

static void test_group(void)
{
	char b[32];

	attr_group(1210, b, sizeof(b));
	is_str(b, "1 210", "1 210");
	attr_group(0, b, sizeof(b));
	is_str(b, "0", "0");
	attr_group(999, b, sizeof(b));
	is_str(b, "999", "999");
	attr_group(1234567, b, sizeof(b));
	is_str(b, "1 234 567", "1 234 567");
	attr_group(1234567, b, 5);
	is_str(b, "1 23", "cut to fit");
}

int main(void)
{
	test_ctxt();
	test_msr();
	test_group();
	return tap_done();
}
