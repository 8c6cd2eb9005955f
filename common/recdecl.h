/* SPDX-License-Identifier: MIT */
/*
 * What the keys of a record type no probe declares are (calib, the stub's,
 * boot, attribution, fingerprint, ...), declared by the record's writer
 * beside the code that writes it, as a probe declares its result keys
 * (userland/probe.h, struct probe_key). tp-report's schema reads them
 * through its built-in copy (tools/report/gen/keys_gen.c writes it) and
 * docs/records.md's table is made from it. Rows of a type are tried in
 * order: the first whose patterns match says what a key is.
 */
#ifndef TP_COMMON_RECDECL_H
#define TP_COMMON_RECDECL_H

/*
 * Identity: part of what was measured (equal in two records that compare);
 * figure: a number measured; budget: how much was measured, never ranked;
 * context: circumstances and findings, not compared.
 */
enum tp_key_class { TP_KEY_ID = 1, TP_KEY_FIGURE, TP_KEY_BUDGET, TP_KEY_CONTEXT };

struct tp_rec_key {
	const char *type;	/* the record type, an fnmatch() pattern ("stub*") */
	const char *key;	/* an fnmatch() pattern */
	enum tp_key_class cls;
	const char *why;	/* one line for docs/records.md */
};

/* A table of rows ends with a row of type NULL. */
#define TP_REC_KEYS_END { 0, 0, 0, 0 }

#endif
