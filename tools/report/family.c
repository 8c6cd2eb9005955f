// SPDX-License-Identifier: MIT
/* One hypothesis per result, tested hierarchically; see family.h. */
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "util.h"

static int by_p(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* A sorted copy of p (n + 1 places, so n may be 0); caller frees. */
static double *sorted(const double *p, size_t n)
{
	double *s = xcalloc(n + 1, sizeof(*s));

	memcpy(s, p, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_p);
	return s;
}

double family_simes(const double *p, size_t n)
{
	double *s = sorted(p, n), best = 1;

	for (size_t k = 0; k < n; k++)
		if ((double)n * s[k] / (double)(k + 1) < best)
			best = (double)n * s[k] / (double)(k + 1);
	free(s);
	return best;
}

double family_bh(const double *p, size_t n, double q, size_t *passed)
{
	double *s = sorted(p, n), thr = -1;
	size_t k_max = 0;

	for (size_t k = 0; k < n; k++)
		if (s[k] <= (double)(k + 1) / (double)n * q) {
			thr = s[k];
			k_max = k + 1;
		}
	free(s);
	if (passed)
		*passed = k_max;
	return thr;
}

/* The distinct labels of group[0..n), in first-seen order, into *labels; how many. */
static size_t families_of(const size_t *group, size_t n, size_t **labels)
{
	size_t m = 0;

	*labels = xcalloc(n + 1, sizeof(**labels));
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < m && (*labels)[k] != group[i])
			k++;
		if (k == m)
			(*labels)[m++] = group[i];
	}
	return m;
}

/* The p-values of family label's tests into buf; how many. */
static size_t members(const double *p, const size_t *group, size_t n, size_t label, double *buf)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (group[i] == label)
			buf[k++] = p[i];
	return k;
}

void family_select(const double *p, const size_t *group, size_t n, double q, int *pass,
		   size_t *size, struct family_outcome *out)
{
	size_t *labels, m = families_of(group, n, &labels), *fsize = xcalloc(m + 1, sizeof(*fsize));
	double *buf = xcalloc(n + 1, sizeof(*buf)), *fp = xcalloc(m + 1, sizeof(*fp));
	double sel, *within = xcalloc(m + 1, sizeof(*within));

	for (size_t f = 0; f < m; f++) {
		fsize[f] = members(p, group, n, labels[f], buf);
		fp[f] = family_simes(buf, fsize[f]);
	}
	sel = family_bh(fp, m, q, &out->selected);
	out->families = m;
	for (size_t f = 0; f < m; f++)	/* the selected ones, at q R / m within */
		within[f] = fp[f] <= sel ? family_bh(buf, members(p, group, n, labels[f], buf),
						     q * (double)out->selected / (double)m, NULL) : -1;
	for (size_t i = 0; i < n; i++) {
		size_t f = 0;

		while (labels[f] != group[i])
			f++;
		pass[i] = p[i] <= within[f];
		if (size)
			size[i] = fsize[f];
	}
	free(labels);
	free(fsize);
	free(buf);
	free(fp);
	free(within);
}
