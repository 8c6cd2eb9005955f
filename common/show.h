/* SPDX-License-Identifier: MIT */
/*
 * How a probe's results are shown, declared by the probe (userland/probe.h,
 * struct probe's show) beside its keys: which figure answers "what does
 * reading the default clock cost", its table's layout, its series plot,
 * its bar chart and its plot of CPU pairs. tp-report reads these through its built-in copy
 * (tools/report/gen/keys_gen.c writes it at build time), never by the
 * probe's name; the row types live here so that both sides read one
 * definition.
 */
#ifndef TP_COMMON_SHOW_H
#define TP_COMMON_SHOW_H

/*
 * The figure a clocksource change asks about (docs/comparing.md, "When a
 * figure leads"): the result called name whose identity holds ident
 * ("key=value"), its figure key, in its as-booted row. The probe's
 * as-booted rows: a result whose identity's booted_key is the clocksource
 * the run booted gets a second id with it replaced by "as booted", and
 * route_key's route_direct (the vDSO) counted as route_as (libc): that is
 * part of the answer, not of the question; a result with skip_key (a
 * platform counter's read, not through the clocksource) gets none.
 */
struct show_clock {
	const char *name;
	const char *ident;
	const char *key;
	const char *booted_key, *skip_key;
	const char *route_key, *route_direct, *route_as;
};

/*
 * A column of the probe's table: keys matching pat (fnmatch()), and a
 * second, pat2, in the same cell as "first MID second END".
 */
struct show_col {
	const char *title;
	const char *pat;
	const char *pat2;
	const char *mid, *end;
};

#define SHOW_COLS_MAX 8

/*
 * The probe's table: its columns in order (keys no column names follow as
 * generic columns), rows by sort_key's mean (NULL: as read), dearest first
 * when descending.
 */
struct show_layout {
	const char *sort_key;
	int descending;
	struct show_col cols[SHOW_COLS_MAX];
};

#define SHOW_COL(title, pat) { title, pat, 0, 0, 0 }
#define SHOW_COL2(title, pat, pat2, mid, end) { title, pat, pat2, mid, end }

/*
 * A series plot of the probe's results: ykey against xkey, a line per run
 * and per value of the split keys, log axes where asked, y's interval from
 * lokey and hikey as error bars (NULL: none); base names its files.
 */
struct show_series {
	const char *base;
	const char *title, *xlabel, *ylabel;
	const char *xkey, *ykey;
	const char *split[3];
	int logx, logy;
	const char *lokey, *hikey;
	const char *caption;
};

/*
 * A horizontal bar chart of the probe's results, a bar per run, a log
 * axis: each bar key's figure, or result's value. base names its files.
 * By name: a row per result whose figure every run measured above 0, rows
 * grouped by result name, each labelled with its name (less name_pre and
 * name_post around it) and its identity's values (but skip_ident's);
 * caption then says how many rows are shown. By panel: a panel per value
 * of panel_key (titled panel_pre VALUE panel_post), a row per result
 * labelled with label_key's string (else its name) and " NAME VALUE" of
 * label_num_key; mark_x, when not 0, a dashed line there.
 */
enum show_bars_kind { SHOW_BARS_BY_NAME = 1, SHOW_BARS_BY_PANEL };

struct show_bars {
	enum show_bars_kind kind;
	const char *base;
	const char *key;
	const char *title, *xlabel, *caption;
	const char *group_title;		/* by name: the panel's */
	const char *name_pre, *name_post, *skip_ident;
	const char *panel_key, *panel_pre, *panel_post;	/* by panel */
	const char *label_key, *label_num_key;
	double mark_x;
};

/*
 * A plot of the probe's ordered pairs (a_key's integer > b_key's): key's
 * value with bound_key's as error bars, a point per run and pair; only
 * results whose when_key is when, or that have none. base names its files.
 */
struct show_pairs {
	const char *base;
	const char *a_key, *b_key, *key, *bound_key, *when_key, *when;
	const char *title, *xlabel, *ylabel, *caption;
};

/* All of it; a NULL member: the probe has none of that. */
struct show_decl {
	const struct show_clock *default_clock;
	const struct show_layout *layout;
	const struct show_series *series;
	const struct show_bars *bars;
	const struct show_pairs *pairs;
};

#endif
