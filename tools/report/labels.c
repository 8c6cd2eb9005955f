// SPDX-License-Identifier: MIT
/* A run's label; see labels.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "util.h"

#define LABEL_PART_MAX 24	/* bytes of one part of a label at most */

/* n bytes of s at most, not ending inside a UTF-8 character nor in blanks. */
static size_t part_len(const char *s, size_t n)
{
	if (n > LABEL_PART_MAX) {
		n = LABEL_PART_MAX;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	while (n && s[n - 1] == ' ')
		n--;
	return n;
}

/* A field of the run record, up to its first "(": "QEMU Standard PC". */
static void add_part(struct sbuf *b, const char *sep, const char *s)
{
	size_t n = part_len(s, strcspn(s, "("));

	if (b->len)
		sbuf_adds(b, sep);
	sbuf_add(b, s, n);
}

static const char *head_str(const struct run *r, const char *key)
{
	const char *s = json_string_value(json_object_get(r->head, key));

	return s ? s : "";
}

char *run_default_label(const struct run *r)
{
	struct sbuf b = { 0 };
	const char *base = strrchr(r->file, '/');

	if (!r->head) {
		sbuf_addf(&b, "%s#%d", base ? base + 1 : r->file, r->seq);
		return sbuf_take(&b);
	}
	add_part(&b, "/", *head_str(r, "env") ? head_str(r, "env") : "?");
	if (*head_str(r, "machine"))
		add_part(&b, "/", head_str(r, "machine"));
	return sbuf_take(&b);
}

/*
 * What the label's machine part leaves out: the parenthesised part up to
 * its first comma, "(Q35 + ICH9)" of "QEMU Standard PC (Q35 + ICH9, 2009)"
 * (the chipset, where QEMU's q35 and pc differ).
 */
static void machine_detail(const struct run *r, const char *field, struct sbuf *b)
{
	const char *open = strchr(head_str(r, field), '(');
	size_t n;

	if (!open)
		return;
	n = part_len(open + 1, strcspn(open + 1, ",)"));
	if (n)
		sbuf_addf(b, "(%.*s)", (int)n, open + 1);
}

static void head_field(const struct run *r, const char *field, struct sbuf *b)
{
	if (*head_str(r, field))
		add_part(b, "", head_str(r, field));
}

/* The name of the file the run came from, without its folder. */
static void file_base(const struct run *r, const char *field, struct sbuf *b)
{
	const char *base = strrchr(r->file, '/');

	(void)field;
	sbuf_adds(b, base ? base + 1 : r->file);
}

/*
 * What tells runs apart when their env and machine agree, in this order;
 * the first that differs within a group of equal labels is added to each.
 */
static const struct {
	const char *field;
	void (*get)(const struct run *r, const char *field, struct sbuf *b);
} label_parts[] = {
	{ "machine", machine_detail },
	{ "clocksource", head_field },
	{ "cpu_model", head_field },
	{ "kernel", head_field },
	{ "variant", head_field },
	{ NULL, file_base },
};

/* Label part p of run r; "" if it has none. */
static char *label_part(const struct run *r, size_t p)
{
	struct sbuf b = { 0 };

	label_parts[p].get(r, label_parts[p].field, &b);
	return sbuf_take(&b);
}

/* Appends part p to the labels of the n runs in group when they do not all agree on it. */
static void label_by(struct report *rp, const size_t *group, size_t n, size_t p)
{
	char **part = xcalloc(n, sizeof(*part));
	int differ = 0;

	for (size_t k = 0; k < n; k++) {
		part[k] = label_part(&rp->runs[group[k]], p);
		differ |= k && strcmp(part[0], part[k]);
	}
	for (size_t k = 0; k < n; k++) {
		struct run *r = &rp->runs[group[k]];

		if (differ && *part[k]) {
			char *l = xasprintf("%s %s", r->label, part[k]);

			free(r->label);
			r->label = l;
		}
		free(part[k]);
	}
	free(part);
}

/* Makes labels unique: the first part that tells equal ones apart, then #n. */
void runs_dedupe_labels(struct report *rp)
{
	const char **labels = xcalloc(rp->nruns, sizeof(*labels));

	for (size_t p = 0; p <= ARRAY_SIZE(label_parts); p++) {
		struct groups same;

		/* grouped by the labels as this pass found them */
		for (size_t i = 0; i < rp->nruns; i++)
			labels[i] = rp->runs[i].label;
		group_strings(labels, rp->nruns, &same);
		for (size_t g = 0; g < same.n; g++) {
			const size_t *group = same.idx + same.start[g];
			size_t n = same.start[g + 1] - same.start[g];

			if (n < 2)
				continue;
			if (p < ARRAY_SIZE(label_parts)) {
				label_by(rp, group, n, p);
				continue;
			}
			for (size_t k = 0; k < n; k++) {
				struct run *r = &rp->runs[group[k]];
				char *l = xasprintf("%s#%zu", r->label, k + 1);

				free(r->label);
				r->label = l;
			}
		}
		groups_free(&same);
	}
	free(labels);
}
