// SPDX-License-Identifier: MIT
/* The line the kernel gets, checked and assembled; see cmdbuild.h. */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "cmdbuild.h"
#include "stub.h"
#include "ucs2.h"

/* What the line is checked against before the kernel gets it (cmdline.h). */
static void cmdline_env(struct tp_stub *s, struct tp_cmdline_env *env)
{
	int embedded_initrd = s->embedded && s->pl.initrd.data;

	env->user_empty = s->user_empty && s->cmdline_source[0] != 'b';
	env->initrd_file = !embedded_initrd && !s->initrd_taken && s->vol.root &&
			   !EFI_ERROR(tp_file_exists(&s->vol, TP_INITRD_PATH, sizeof(TP_INITRD_PATH) - 1));
	env->serial = s->con.serial || s->con.rec_serial || s->con.conout_serial;
	env->drop_initrd = embedded_initrd || s->initrd_taken;
}

static void say_fallback(struct tp_stub *s, const struct tp_cmdline_final *f)
{
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_cmdline_faults_text(&b, f->faults);
	tp_buf_puts(&b, "; booting the built-in line with ");
	tp_buf_putu(&b, f->fallback_kept);
	tp_buf_puts(&b, " timeprobe.* word(s) of it");
	r = tp_con_warn(&s->con, "cmdline_fallback", s->cmdline_from, m);
	tp_rec_bool(r, "empty", !!(f->faults & TP_CF_EMPTY));
	tp_rec_bool(r, "no_initrd", !!(f->faults & (TP_CF_NO_INITRD | TP_CF_NOINITRD)));
	tp_rec_bool(r, "no_console", !!(f->faults & TP_CF_NO_CONSOLE));
	tp_rec_uint(r, "words_kept", f->fallback_kept);
	tp_con_emit(&s->con);
	s->cmdline_source = "fallback";
}

/*
 * The user's line checked before the SPCR console is settled and the TSC
 * calibrated, so that a fallback line gets the SPCR port's console= too and
 * the stub's own options are read from the line that will boot. The same
 * check runs again on the final line (cutting it to length may drop words).
 * Returns 1 when the built-in line replaced the user's.
 */
int tp_cmd_check_user(struct tp_stub *s)
{
	static const struct tp_cmdline_extras none = { 0 };
	struct tp_cmdline_env env;
	struct tp_cmdline_final f;

	cmdline_env(s, &env);
	tp_cmdline_final(s->cmdline, sizeof(s->cmdline), s->user, &none, &env, &f);
	if (!f.faults)
		return 0;
	say_fallback(s, &f);
	s->user_empty = 0;
	return 1;
}

/* The line was cut to TP_CMDLINE_MAX: a message and a stub_warning record. */
static void say_truncated(struct tp_stub *s, const struct tp_cmdline_report *rep)
{
	char m[200];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_cmdline_report_text(&b, rep);
	tp_con_msg(&s->con, m);
	r = tp_con_rec(&s->con, "stub_warning");
	tp_rec_str(r, "what", "cmdline_truncated");
	tp_rec_uint(r, "user_words_dropped", rep->user_words_dropped);
	tp_rec_uint(r, "limit", TP_CMDLINE_MAX);
	tp_con_emit(&s->con);
}

/* The stub_cmdline record: the line the kernel gets and how it came to be. */
static void say_cmdline(struct tp_stub *s, const struct tp_cmdline_report *rep)
{
	struct tp_rec *r = tp_con_rec(&s->con, "stub_cmdline");

	tp_rec_str(r, "cmdline", s->cmdline);
	tp_rec_uint(r, "len", rep->len);
	tp_rec_bool(r, "added_panic", rep->added_panic);
	tp_rec_bool(r, "added_tsc_early", rep->added_tsc_early);
	tp_rec_str(r, "source", s->cmdline_source);
	tp_rec_str(r, "encoding", tp_encoding_name(s->encoding));
	tp_rec_uint(r, "initrd_dropped", s->initrd_dropped);
	tp_rec_bool(r, "before_dashes", rep->before_dashes);
	tp_con_emit(&s->con);
}

EFI_STATUS tp_cmd_build(struct tp_stub *s)
{
	struct tp_cmdline_extras x = { .tsc_hz = s->tsc.tsc_hz };
	struct tp_cmdline_env env;
	struct tp_cmdline_final f;

	cmdline_env(s, &env);
	if (tp_cmdline_final(s->cmdline, sizeof(s->cmdline), s->user, &x, &env, &f) > 0)
		say_truncated(s, &f.rep);
	if (f.faults)
		say_fallback(s, &f);
	tp_utf8_to_ucs2((uint16_t *)s->cmdline16, TP_CMDLINE_MAX + 1, s->cmdline);
	say_cmdline(s, &f.rep);
	/* the LoadOptions must say the line above, no more and no less */
	if (!tp_ucs2_is_line((const uint16_t *)s->cmdline16, s->cmdline)) {
		tp_con_error(&s->con, "cmdline_handover",
			     "the UCS-2 LoadOptions are not the line assembled for",
			     TP_KERNEL_PATH, EFI_INVALID_PARAMETER);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

/*
 * Linux hands init at most 31 arguments and 30 environment entries of
 * the user's and panics on one more (cmdline.h, TP_INIT_*): the words
 * past them are dropped, and said.
 */
void tp_cmd_cap_init(struct tp_stub *s)
{
	struct tp_init_cap cap;
	struct tp_rec *r;
	char m[160];
	struct tp_buf b;

	if (!tp_cmdline_cap_init(s->user, &cap))
		return;
	tp_buf_init(&b, m, sizeof(m));
	tp_buf_putu(&b, cap.args_dropped + cap.envs_dropped);
	tp_buf_puts(&b, " word(s) past what Linux hands init (31 arguments, 30 environment "
		    "entries) dropped, so the kernel does not panic");
	r = tp_con_warn(&s->con, "cmdline_init_words", s->cmdline_from, m);
	tp_rec_uint(r, "args_dropped", cap.args_dropped);
	tp_rec_uint(r, "envs_dropped", cap.envs_dropped);
	tp_rec_uint(r, "args_limit", TP_INIT_ARGS_MAX);
	tp_rec_uint(r, "envs_limit", TP_INIT_ENVS_MAX);
	tp_con_emit(&s->con);
}
