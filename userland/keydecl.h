/* SPDX-License-Identifier: MIT */
/*
 * A probe's key declaration as a record: the run ships one `keys` record
 * per probe after its `run` and `fingerprint` records (docs/records.md),
 * and tp-report reads it; tp-report's built-in copy for older captures is
 * made by the same function at build time (tools/report/gen/keys_gen.c),
 * so the two cannot differ.
 */
#ifndef TP_KEYDECL_H
#define TP_KEYDECL_H

#include "probe.h"
#include "../common/record.h"
#include "../common/recdecl.h"

/*
 * Begins and fills {"type":"keys","for_probe":NAME,"keys":{KEY:[class, unit,
 * direction, same_as] ...}} for p (struct probe_key); a key with a rule
 * gets a fifth element, {"same_below_n":N, "max_of":KEY, "half_of":KEY}
 * (those it has). The
 * caller finishes it (sink_emit, tp_rec_finish).
 */
void keydecl_record(struct tp_rec *r, const struct probe *p);

/* "id", "figure", "budget", "context"; "higher", "lower", "zero", NULL. */
const char *keydecl_class_name(enum probe_key_class c);
const char *keydecl_dir_name(enum probe_key_dir d);
/* A figure's uncertainty as the records name it: "interval", "none", "unstable"; NULL: unsaid. */
const char *keydecl_ci_name(enum probe_key_ci c);

/* A figure's kind as the records name it ("value", "count", "max", "context"); NULL: unsaid. */
const char *keydecl_kind_name(enum probe_key_kind k);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key keydecl_rec_keys[];

#endif
