/* SPDX-License-Identifier: MIT */
/*
 * json.h - a streaming JSON writer with fio's look ("key" : value, two-space
 * indent). It tracks nesting and commas itself, so callers only say what
 * comes next; strings are escaped per RFC 8259.
 */
#ifndef BB_JSON_H
#define BB_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	int count[JSON_MAX_DEPTH];	/* members written at each level */
};

void json_init(struct json *j, FILE *f);
void json_obj_open(struct json *j, const char *key);	/* key NULL inside arrays or at top */
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, int64_t val);
void json_uint(struct json *j, const char *key, uint64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, int val);
/* null: a value not known (a figure the drive does not report), never a 0 */
void json_null_member(struct json *j, const char *key);
void json_escape(FILE *f, const char *s);

#endif
