// SPDX-License-Identifier: MIT
/* robust.c - median, MAD and the outlier rule (robust.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "stats/robust.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_of(const double *v, unsigned n)
{
	double *s, m;

	if (!n)
		return 0;
	s = xcalloc(n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_value);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double mad_of(const double *v, unsigned n, double median)
{
	double *dev, m;
	unsigned i;

	if (!n)
		return 0;
	dev = xcalloc(n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(v[i] - median);
	m = median_of(dev, n);
	free(dev);
	return m;
}

int is_outlier(double x, double median, double mad)
{
	double off = fabs(x - median);

	return off > OUTLIER_MADS * 1.4826 * mad && off > OUTLIER_REL * fabs(median);
}
