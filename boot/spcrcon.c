// SPDX-License-Identifier: MIT
/* Linux's serial console from the ACPI SPCR table; see spcrcon.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/acpi.h"
#include "../common/buf.h"
#include "efiacpi.h"
#include "spcr.h"
#include "spcrcon.h"

/* What the SPCR gave: shown on screen and as the stub_console record. */
struct spcr_outcome {
	const void *table;	/* NULL: none found */
	struct tp_spcr sp;	/* as far as the table could be read */
	int usable;		/* sp describes a UART Linux can use */
	enum tp_spcr_add add;	/* when usable */
	const char *why;	/* when nothing was added and nothing named */
	char word[64];		/* the console= word, when usable */
};

/* Finds and parses the SPCR: o->table, o->sp and o->usable, or o->why. */
static void spcr_find(EFI_SYSTEM_TABLE *st, struct spcr_outcome *o)
{
	struct tp_acpi_root root;
	uint32_t len = 0;
	int bad = 0;

	o->why = tp_efi_acpi_root(st, &root);
	if (o->why)
		return;
	o->table = tp_acpi_find(&root, "SPCR", tp_acpi_map_identity, NULL, &len, &bad);
	if (!o->table)
		o->why = bad ? "SPCR checksum bad" : "no SPCR table";
	else
		o->usable = tp_spcr_parse(o->table, len, &o->sp, &o->why) == 0;
}

static void spcr_message(struct tp_console *con, const struct spcr_outcome *o)
{
	char m[200];
	struct tp_buf b;

	tp_buf_init(&b, m, sizeof(m));
	if (o->usable && o->add == TP_SPCR_ADDED) {
		tp_buf_puts(&b, "serial console from ACPI SPCR: added ");
		tp_buf_puts(&b, o->word);
	} else if (o->usable && o->add == TP_SPCR_NAMED) {
		tp_buf_puts(&b, "serial console from ACPI SPCR: the command line already has ");
		tp_buf_puts(&b, o->word);
	} else {
		tp_buf_puts(&b, "no serial console from ACPI SPCR: ");
		tp_buf_puts(&b, o->why);
	}
	tp_con_msg(con, m);
}

static void spcr_record(struct tp_console *con, const struct spcr_outcome *o)
{
	int added = o->usable && o->add == TP_SPCR_ADDED;
	int named = o->usable && o->add == TP_SPCR_NAMED;
	struct tp_rec *r = tp_con_rec(con, "stub_console");
	const struct tp_spcr *sp = &o->sp;

	tp_rec_bool(r, "spcr", o->table != NULL);
	if (o->table) {
		char addr[24];
		struct tp_buf a;

		tp_buf_init(&a, addr, sizeof(addr));
		tp_buf_puts(&a, "0x");
		tp_buf_puthex(&a, sp->address, 1);
		tp_rec_uint(r, "revision", sp->revision);
		tp_rec_uint(r, "interface_type", sp->interface_type);
		tp_rec_str(r, "interface", tp_spcr_interface_name(sp->interface_type));
		tp_rec_str(r, "space", sp->space == ACPI_GAS_IO ? "io" :
				       sp->space == ACPI_GAS_MEMORY ? "mmio" : "other");
		tp_rec_str(r, "address", addr);
		tp_rec_uint(r, "baud", sp->baud);
	}
	if (o->usable)
		tp_rec_str(r, "console", o->word);
	tp_rec_bool(r, "added", added);
	tp_rec_bool(r, "already_named", named);
	if (!added && !named)
		tp_rec_str(r, "reason", o->why);
	tp_con_emit(con);
}

void tp_spcr_console(struct tp_console *con, EFI_SYSTEM_TABLE *st, char *line)
{
	struct spcr_outcome o = { 0 };
	struct tp_buf w;

	spcr_find(st, &o);
	if (o.usable) {
		tp_buf_init(&w, o.word, sizeof(o.word));
		o.add = tp_spcr_console_add(line, &o.sp, &w);
		if (o.add == TP_SPCR_NO_ROOM)
			o.why = "no room on the command line";
	}
	spcr_message(con, &o);
	spcr_record(con, &o);
}

