/* SPDX-License-Identifier: MIT */
/*
 * packs.h - which optional part of the image (a pack: rescue.img, zfs.img,
 * ... beside the base initramfs) carries a program, from the registry the
 * image build writes (/etc/bootbench/packs: PROGRAM PACK FILE a line).
 */
#ifndef BB_PACKS_H
#define BB_PACKS_H

#include <stddef.h>

/*
 * When PROGRAM (a name or a path) belongs to a pack, writes "it is in the
 * PACK pack (FILE), which this boot did not load" into BUF and returns 1;
 * 0 otherwise. BOOTBENCH_PACKS names another registry (tests).
 */
int pack_missing_note(const char *program, char *buf, size_t len);

#endif
