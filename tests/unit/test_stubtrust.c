// SPDX-License-Identifier: MIT
/*
 * userland/stubtrust.c: the stub's file taken only when its SHA-256 is the
 * one in the digest variable, read as efivarfs shows it (4 bytes of
 * attributes, then the data), with exactly the volatile attributes; and
 * only the stub's own record types kept.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/sink.h"
#include "../../userland/stubtrust.h"
#include "../../common/stubfile.h"

static char dir[] = "/tmp/tp-stubtrust-XXXXXX", var[64];

/* The variable as efivarfs shows it: attrs little-endian, then n bytes of digest. */
static void put_var(uint32_t attrs, const uint8_t *digest, size_t n)
{
	uint8_t v[64] = { (uint8_t)attrs, (uint8_t)(attrs >> 8), (uint8_t)(attrs >> 16),
			  (uint8_t)(attrs >> 24) };
	int fd = open(var, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	memcpy(v + 4, digest, n);
	if (fd < 0 || write(fd, v, 4 + n) != (ssize_t)(4 + n))
		perror(var);
	close(fd);
}

static void digest(void)
{
	static const char file[] = "a stub file's text\n";
	uint8_t d[TP_SHA256_LEN];
	char hex[2 * TP_SHA256_LEN + 1];
	const char *why;

	tp_sha256(file, sizeof(file) - 1, d);
	put_var(TP_STUB_DIGEST_ATTRS, d, sizeof(d));
	ok(!stubtrust_check_at(var, file, sizeof(file) - 1, hex), "the stub's digest: taken");
	why = stubtrust_check_at(var, "a forged file\n", 14, hex);
	ok(why && strstr(why, "SHA-256 is not the one"), "another file: refused (%s)", why);
	is_int(strlen(hex), 64, "the file's digest in hex for the record");
	put_var(TP_STUB_DIGEST_ATTRS | TP_EFI_VARIABLE_NON_VOLATILE, d, sizeof(d));
	why = stubtrust_check_at(var, file, sizeof(file) - 1, hex);
	ok(why && strstr(why, "attributes"), "a non-volatile variable: refused (%s)", why);
	put_var(TP_STUB_DIGEST_ATTRS, d, sizeof(d) - 1);
	ok(stubtrust_check_at(var, file, sizeof(file) - 1, hex), "a digest cut short: refused");
	unlink(var);
	why = stubtrust_check_at(var, file, sizeof(file) - 1, hex);
	ok(why && strstr(why, "no EFI variable"), "no variable: refused (%s)", why);
	ok(strstr(TP_STUB_DIGEST_EFIVARFS, TP_STUB_DIGEST_VAR "-" TP_VENDOR_GUID_STR),
	   "efivarfs names the variable NAME-GUID");
}

static void keep_line(const char *type)
{
	struct tp_rec r;
	const char *line;

	tp_rec_begin(&r, type);
	tp_rec_int(&r, "tsc_hz", 1234567);
	line = tp_rec_finish(&r);
	stubtrust_keep(line, strlen(line));
}

static void types(void)
{
	size_t len;
	const char *saved;

	keep_line("calib_summary");
	keep_line("verdict");
	keep_line(TP_STUB_HANDOFF);
	stubtrust_keep("{\"type\":\"stub\"} no CRC\n", 23);
	saved = sink_saved(&len);
	ok(saved && strstr(saved, "\"calib_summary\"") && strstr(saved, "\"" TP_STUB_HANDOFF "\""),
	   "the stub's types kept");
	ok(saved && !strstr(saved, "verdict") && !strstr(saved, "no CRC"),
	   "a verdict record, and a line that is no record, not kept");
}

int main(void)
{
	int devnull = open("/dev/null", O_WRONLY);

	sink_set_outputs(&devnull, 1, 1);	/* the console lines said */
	if (!mkdtemp(dir))
		return perror("mkdtemp"), 1;
	snprintf(var, sizeof(var), "%s/" TP_STUB_DIGEST_VAR, dir);
	digest();
	types();
	rmdir(dir);
	return tap_done();
}
