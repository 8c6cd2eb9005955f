// SPDX-License-Identifier: MIT
/* OpenMetrics names, units and escaping: see openmetrics.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export.h"
#include "openmetrics.h"
#include "util.h"

/*
 * Prometheus' base units (prometheus.io/docs/practices/naming): seconds,
 * ratios, hertz. A percentage or ppm is a ratio scaled; a count, ticks, or
 * a rate per minute have no base unit to become and keep their key.
 */
static const struct om_unit om_units[] = {
	{ "ns", "ns", "seconds", "seconds", 1e-9 },
	{ "us", "us", "seconds", "seconds", 1e-6 },
	{ "ms", "ms", "seconds", "seconds", 1e-3 },
	{ "s", "s", "seconds", "seconds", 1 },
	{ "%", "pct", "ratio", "ratio", 1e-2 },
	{ "ppm", "ppm", "ratio", "ratio", 1e-6 },
	{ "Hz", "hz", "hertz", "hertz", 1 },
	{ "kHz", "khz", "hertz", "hertz", 1e3 },
	{ "1/s", "per_s", "per_second", NULL, 1 },
	{ NULL, NULL, NULL, NULL, 1 },
};

const struct om_unit *om_unit_of(const char *unit)
{
	const struct om_unit *u = om_units;

	for (; u->unit; u++)
		if (unit && !strcmp(unit, u->unit))
			break;
	return u;
}

/* s onto b as lower-case [a-z0-9_]: every other byte run one '_', none at either end. */
static void add_word(struct sbuf *b, const char *s)
{
	int gap = 0;
	size_t start = b->len;

	for (; *s; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			gap = 1;
			continue;
		}
		if (gap && b->len > start)
			sbuf_add(b, "_", 1);
		gap = 0;
		sbuf_add(b, &c, 1);
	}
}

/* Drops the first whole '_'-separated occurrence of token from w (in place). */
static void drop_token(char *w, const char *token)
{
	size_t tl = strlen(token);

	for (char *p = w; (p = strstr(p, token)) != NULL; p++) {
		int head = p == w || p[-1] == '_', tail = !p[tl] || p[tl] == '_';

		if (!head || !tail)
			continue;
		/* take one '_' with it: after the token, else before it */
		if (p[tl])
			memmove(p, p + tl + 1, strlen(p + tl + 1) + 1);
		else
			*(p > w ? p - 1 : p) = 0;
		return;
	}
}

/*
 * A metric type's name as a word of a metric name misleads a reader, and
 * promtool's lint refuses it (metric name should not include type): the
 * probe "counter" reads a hardware counter, so it says so.
 */
static const char *const type_words[][2] = {
	{ "counter", "hwcounter" },
	{ "gauge", "gauges" },
	{ "histogram", "histograms" },
	{ "summary", "summaries" },
};

/* w onto b, '_' first unless b is empty, a type's name replaced. */
static void add_name_word(struct sbuf *b, const char *w, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_words); i++) {
		if (strlen(type_words[i][0]) == n && !memcmp(w, type_words[i][0], n)) {
			w = type_words[i][1];
			n = strlen(w);
			break;
		}
	}
	if (b->len)
		sbuf_add(b, "_", 1);
	sbuf_add(b, w, n);
}

/*
 * The suffixes OpenMetrics gives the samples of counters, histograms,
 * summaries and info metrics (specification, "Metric types"): a gauge
 * named with one would read as another type's sample, and `_total` says
 * counter. Such a name gets "_value" after it.
 */
static const char *const reserved_suffixes[] = {
	"_total", "_created", "_count", "_sum", "_bucket", "_gcount", "_gsum", "_info",
};

static void add_reserved_guard(struct sbuf *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(reserved_suffixes); i++) {
		size_t n = strlen(reserved_suffixes[i]);

		if (b->len >= n && !strcmp(b->s + b->len - n, reserved_suffixes[i])) {
			sbuf_adds(b, "_value");
			return;
		}
	}
}

char *om_metric_name(const char *probe, const char *key, const char *unit)
{
	const struct om_unit *u = om_unit_of(unit);
	struct sbuf k = { 0 }, b = { 0 };
	char *w;

	add_word(&k, key);
	w = sbuf_take(&k);
	if (u->token)
		drop_token(w, u->token);
	add_word(&k, probe);
	if (*w)
		sbuf_addf(&k, "_%s", w);
	free(w);
	w = sbuf_take(&k);
	sbuf_add(&b, OM_PREFIX, strlen(OM_PREFIX) - 1);	/* add_name_word puts the '_' */
	for (const char *p = w, *e; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '_') ? strchr(p, '_') : p + strlen(p);
		add_name_word(&b, p, (size_t)(e - p));
	}
	if (u->suffix)
		sbuf_addf(&b, "_%s", u->suffix);
	add_reserved_guard(&b);
	free(w);
	return sbuf_take(&b);
}

char *om_label_name(const char *s)
{
	struct sbuf b = { 0 };

	if ((*s >= '0' && *s <= '9') || (s[0] == '_' && s[1] == '_') || !*s)
		sbuf_adds(&b, "key_");
	for (; *s; s++) {
		int ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || *s == '_';

		sbuf_add(&b, ok ? s : "_", 1);
	}
	return sbuf_take(&b);
}

/* s escaped; quote: '"' escaped too (label values), else not (HELP text). */
static void om_escaped(FILE *f, const char *s, int quote)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			s = export_utf8_put(f, s);
		} else if (c == '\\' || (quote && c == '"')) {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c < 0x20 || c == 0x7f) {
			fputs("\xef\xbf\xbd", f);
		} else {
			fputc(c, f);
		}
	}
}

void om_label_value(FILE *f, const char *s)
{
	om_escaped(f, s, 1);
}

void om_help_text(FILE *f, const char *s)
{
	om_escaped(f, s, 0);
}

void om_number(FILE *f, double v)
{
	char buf[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

long long om_time(const char *s)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;

	if (!end || *end)
		return -1;
	return (long long)timegm(&tm);
}
