/* SPDX-License-Identifier: MIT */
/*
 * values.h - the parsers of option values (values.c), one per value type
 * of the option table. Each returns 0, or -1 for a value it cannot take.
 * kb_base is fio's: 1024 (its default) or 1000 (options.c's note).
 */
#ifndef BB_VALUES_H
#define BB_VALUES_H

#include <stdint.h>

struct sizepct;
struct bssplit;
struct bsrange;
struct plist;
struct dist_spec;
struct rate;
struct pattern;
struct cpus;

int suffix_shift(const char *s, unsigned *shift);
int parse_size(const char *s, uint64_t *out);
int parse_size_base(const char *s, unsigned kb_base, uint64_t *out);
int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out);
int parse_uint(const char *s, int64_t min, int64_t max, uint64_t *out);
int parse_int(const char *s, int64_t min, int64_t max, int *out);
int parse_bool(const char *s, int *out);
int parse_sizepct(const char *s, unsigned kb_base, struct sizepct *out);
int parse_sizerange(const char *s, unsigned kb_base, uint64_t *min, uint64_t *max);
int parse_bssplit(const char *s, unsigned kb_base, struct bssplit *b);
int parse_bsrange(const char *s, unsigned kb_base, struct bsrange *r);
int parse_plist(const char *s, struct plist *p);
int parse_dist(const char *s, unsigned kb_base, struct dist_spec *d);
int parse_rate(const char *s, unsigned kb_base, int sizes, struct rate *r);
int parse_formats(const char *s, unsigned *out);
int parse_pattern(const char *s, struct pattern *p);
int parse_cpulist(const char *s, struct cpus *c);
/* the kernel's memory policies (linux/mempolicy.h's MPOL_*) */
enum { MEMPOL_DEFAULT, MEMPOL_PREFERRED, MEMPOL_BIND, MEMPOL_INTERLEAVE, MEMPOL_LOCAL };
/* numa_cpu_nodes: "all" or a node list; 0, or -1 when it is not one */
int parse_numa_nodes(const char *s, struct cpus *nodes);
/* numa_mem_policy: MODE[:NODES]; 0, or -1 when it is not one */
int parse_numa_policy(const char *s, int *mode, struct cpus *nodes);
int parse_cpumask(const char *s, struct cpus *c);

#endif
