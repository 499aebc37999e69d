/* SPDX-License-Identifier: MIT */
/*
 * report.h - a finished run (job/result.h) written out: fio_json.c in fio's
 * layout (json and json+), human.c as fio's readable summary.
 */
#ifndef BB_REPORT_H
#define BB_REPORT_H

#include <stdio.h>

#include "job/result.h"

void report_json(FILE *f, const struct run_result *r, int plus);
/* fio's JSON written whole to PATH (write_file_atomic); -1 with bb_err. */
int report_json_file(const char *path, const struct run_result *r, int plus);
void report_human(FILE *f, const struct run_result *r);

#endif
