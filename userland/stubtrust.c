// SPDX-License-Identifier: MIT
/* The stub's file against its digest variable, and its records by type; see stubtrust.h. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "recread.h"
#include "sink.h"
#include "stubtrust.h"
#include "../common/record.h"
#include "../common/stubfile.h"

#define TRUST_VAR "EFI variable " TP_STUB_DIGEST_VAR

/* What the variable's file holds: 4 bytes of attributes, then the 32-byte digest. */
static const char *read_var(const char *varpath, uint8_t digest[TP_SHA256_LEN])
{
	uint8_t v[4 + TP_SHA256_LEN + 1];
	ssize_t n = 0, k;
	int fd = open(varpath, O_RDONLY | O_CLOEXEC);
	uint32_t attrs;

	if (fd < 0)
		return "no " TRUST_VAR " (the stub sets its file's SHA-256 there): no stub value taken";
	while (n < (ssize_t)sizeof(v) && (k = read(fd, v + n, sizeof(v) - (size_t)n)) > 0)
		n += k;
	close(fd);
	if (n != 4 + TP_SHA256_LEN)
		return TRUST_VAR " is not 4 bytes of attributes and a SHA-256: no stub value taken";
	attrs = (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
	if (attrs != TP_STUB_DIGEST_ATTRS)
		return TRUST_VAR " has other attributes than the stub's volatile BS+RT "
		       "(non-volatile: not this boot's): no stub value taken";
	memcpy(digest, v + 4, TP_SHA256_LEN);
	return NULL;
}

const char *stubtrust_check_at(const char *varpath, const void *text, size_t len, char *hex)
{
	uint8_t want[TP_SHA256_LEN], got[TP_SHA256_LEN];
	const char *why;

	tp_sha256(text, len, got);
	for (int i = 0; i < TP_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", got[i]);
	why = read_var(varpath, want);
	if (!why && memcmp(want, got, TP_SHA256_LEN))
		why = "its SHA-256 is not the one the stub set in " TRUST_VAR
		      " (forged or damaged): no stub value taken";
	if (why)
		sink_human("timeprobe: " TP_STUB_FILE_PATH " (SHA-256 %s): %s\n", hex, why);
	return why;
}

const char *stubtrust_check(const void *text, size_t len, char *hex)
{
	return stubtrust_check_at(TP_STUB_DIGEST_EFIVARFS, text, len, hex);
}

void stubtrust_keep(const char *line, size_t len)
{
	struct rec_view r;
	const char *type;
	size_t n = len && line[len - 1] == '\n' ? len - 1 : len, tlen = 0;
	long k = tp_rec_check(line, n, &r.json);

	r.len = k > 0 ? (size_t)k : 0;
	type = k > 0 ? recread_raw(&r, "type", &tlen) : NULL;
	if (type && tlen >= 2 && type[0] == '"' && tp_stub_type(type + 1, tlen - 2)) {
		sink_keep(line, len);
		return;
	}
	sink_human("timeprobe: a record in " TP_STUB_FILE_PATH " of a type the stub never "
		   "writes (%.*s): not kept\n", (int)(tlen < 40 ? tlen : 40), type ? type : "");
}
