/* SPDX-License-Identifier: MIT */
/* Saving the run's records on the boot partition (the appliance only). */
#ifndef TP_SAVE_H
#define TP_SAVE_H

#include <stddef.h>
#include "options.h"
#include "stubvals.h"

/* Says what it did on the consoles (human lines); never fails the run. */
void save_results(const struct options *o, const struct stub_handoff *st);

/*
 * Turns the stub's partition identity ("gpt:<guid>" or "mbr:<sig>:<n>") into
 * the PARTUUID the kernel shows in uevent ("<guid>" or "<sig>-<nn>").
 * Returns 0, or -1 if the identity is malformed.
 */
int bootpart_to_partuuid(const char *bootpart, char *out, size_t len);

/*
 * Where the records may be saved: the partition the user named
 * (timeprobe.save_to), or else the one the stub booted from (the
 * bootpart of its file, st->bootpart), which must then prove it is this image's own by its
 * \timeprobe\id file (bootpart_image_id_matches). Nothing is guessed from what a
 * partition holds.
 */
struct save_target {
	char partuuid[40];	/* as the kernel shows PARTUUID */
	int named;		/* the user named it: no image id needed */
};

/* Fills t and returns NULL, or returns why nothing is saved (for a console line). */
const char *bootpart_save_where(const struct options *o, const struct stub_handoff *st,
				struct save_target *t);

/* 1 when an \timeprobe\id file's text (its first line) names partuuid. */
int bootpart_image_id_matches(const char *text, size_t n, const char *partuuid);

#include <stdint.h>

/* The GPT's layout from its header (LBA 1); 0 or -1 if it is not a GPT. */
struct gpt_layout {
	uint64_t entries_lba;
	uint32_t nentries, entry_size;
};
int bootpart_gpt_header_parse(const uint8_t *hdr, size_t len, struct gpt_layout *out);
/* 1-based number of the entry whose unique GUID is partuuid, or 0. */
int bootpart_gpt_find(const uint8_t *entries, const struct gpt_layout *l, const char *partuuid);
/* For an MBR PARTUUID "ssssssss-pp": the partition number if the disk matches, else 0. */
int bootpart_mbr_matches(const uint8_t *sector0, const char *partuuid);
void bootpart_guid_to_text(const uint8_t g[16], char out[37]);

/* seqfile.c: the N of a name "N-..." (0 if it has none). */
unsigned seqfile_sequence_of(const char *name);
/* One more than the largest sequence number in DIR, looking at every entry. */
unsigned seqfile_next(const char *dir);
/*
 * Renames TMP to DIR/NNNN-ID.tp1, NNNN the first free number from SEQ on,
 * never replacing a file; the name chosen goes to name. 0 or -errno.
 */
int seqfile_rename(const char *dir, const char *tmp, const char *id, unsigned seq,
		       char *name, size_t len);

#endif
