/* SPDX-License-Identifier: MIT */
/*
 * rack_export.h - the rack's list for Prometheus (bootbench fleet --expect
 * --export): one bootbench_expected_machine_info series a listed machine,
 * labelled with the name it pushes under, so that a rule can name a machine
 * that never pushed (tools/monitoring's BootbenchNeverSeen).
 */
#ifndef BB_RESULTS_RACK_EXPORT_H
#define BB_RESULTS_RACK_EXPORT_H

#include <stdio.h>

#include "results/rack.h"

/* The listed machines of R as exposition text (format 0.0.4) on OUT; returns how many. */
unsigned rack_export(const struct rack *r, FILE *out);

#endif
