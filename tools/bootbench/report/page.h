/* SPDX-License-Identifier: MIT */
/*
 * page.h - the HTML page `bootbench report` writes: self-contained (inline
 * SVG and CSS, no script, no external URL), of result folders (sysinfo.json,
 * disks.json, each run's JSON and summary, raid.json, console.log) and JSON
 * files (bootbench's or fio's own).
 */
#ifndef BB_PAGE_H
#define BB_PAGE_H

#include <stdio.h>

/* Writes the page of the N folders and files PATHS to F, dated WHEN; returns how many files were unreadable. */
unsigned page_write(FILE *f, char *const *paths, int n, const char *when);

#endif
