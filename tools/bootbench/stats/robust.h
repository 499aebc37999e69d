/* SPDX-License-Identifier: MIT */
/*
 * robust.h - statistics one bad member cannot move: the median, the median
 * absolute deviation (MAD), and the outlier rule `bootbench compare` and
 * `bootbench raid` judge siblings by.
 */
#ifndef BB_ROBUST_H
#define BB_ROBUST_H

/* The median of V[0..N-1] (N > 0); V is not changed. */
double median_of(const double *v, unsigned n);
/* The median of |V[i] - MEDIAN|. */
double mad_of(const double *v, unsigned n, double median);

/*
 * The outlier rule: a member of a group of at least OUTLIER_MIN_GROUP is an
 * outlier when it lies more than OUTLIER_MADS scaled MADs (1.4826 x MAD,
 * the standard deviation's robust stand-in) and more than OUTLIER_REL of
 * the median away from the median: both, so that neither a group of
 * near-identical disks (a tiny MAD) nor a noisy one flags everything.
 */
#define OUTLIER_MIN_GROUP 3
#define OUTLIER_MADS 3.0
#define OUTLIER_REL 0.10
int is_outlier(double x, double median, double mad);

#endif
