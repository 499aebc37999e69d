// SPDX-License-Identifier: MIT
/* json.c - the JSON writer. */
#include "lib/json.h"

#include <inttypes.h>
#include <math.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

void json_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void json_member(struct json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->depth) {
		fputc('\n', j->f);
		fprintf(j->f, "%*s", 2 * j->depth, "");
	}
	if (key) {
		json_escape(j->f, key);
		fputs(" : ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void json_close(struct json *j, char c)
{
	int had = j->count[j->depth];

	j->depth--;
	if (had) {
		fputc('\n', j->f);
		fprintf(j->f, "%*s", 2 * j->depth, "");
	}
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_obj_open(struct json *j, const char *key) { json_open(j, key, '{'); }
void json_obj_close(struct json *j) { json_close(j, '}'); }
void json_arr_open(struct json *j, const char *key) { json_open(j, key, '['); }
void json_arr_close(struct json *j) { json_close(j, ']'); }

void json_str(struct json *j, const char *key, const char *val)
{
	json_member(j, key);
	json_escape(j->f, val ? val : "");
}

void json_int(struct json *j, const char *key, int64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRId64, val);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_double(struct json *j, const char *key, double val)
{
	json_member(j, key);
	/* JSON has no NaN or infinity */
	fprintf(j->f, "%f", isfinite(val) ? val : 0.0);
}

void json_bool(struct json *j, const char *key, int val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null_member(struct json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}
