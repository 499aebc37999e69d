/* SPDX-License-Identifier: MIT */
/*
 * dest.h - a place results go, as an ops struct per kind. Every kind offers
 * the same few folder primitives over paths relative to the destination's
 * base; deliver.c builds the one upload rule on them (a temporary folder,
 * every file, MANIFEST.sha256 last, then one rename), so no kind can get
 * that rule wrong on its own.
 *   mounted (dest_fs.c): the stick, NFS v4/v3 and SMB through the kernel's
 *     clients, then plain file operations;
 *   WebDAV (dest_webdav.c): curl, MKCOL / PUT / MOVE;
 *   the console (deliver.c): each file between marker lines.
 */
#ifndef BB_DEST_H
#define BB_DEST_H

#include <limits.h>

#include "save/url.h"

/* What a failure means for retrying: later may work, or it will not. */
enum dest_error { DEST_OK = 0, DEST_RETRY = 1, DEST_PERMANENT = 2 };

struct dest;

struct dest_ops {
	const char *name;
	/* Connects (mounts, checks the server); errors as enum dest_error, reason in bb_err. */
	int (*attach)(struct dest *d);
	void (*detach)(struct dest *d);
	/* 1 when REL exists, 0 when not, negative dest_error on failure. */
	int (*exists)(struct dest *d, const char *rel);
	/* Makes REL and its parents; existing ones are fine. */
	int (*mkdirs)(struct dest *d, const char *rel);
	/* Copies the local file LOCAL to REL, whole and on the server's disk when it returns. */
	int (*put)(struct dest *d, const char *local, const char *rel);
	/* Renames the folder FROM to TO, failing if TO exists. */
	int (*rename)(struct dest *d, const char *from, const char *to);
	/* Removes the folder REL and what is in it; a missing one is fine. */
	int (*remove)(struct dest *d, const char *rel);
};

struct dest_settings {
	const char *credentials;	/* file of "URL PASSWORD" lines */
	const char *ca_file;		/* HTTPS: the CA bundle to verify servers against */
	const char *smb_vers;		/* cifs vers= */
	const char *stick;		/* the stick's mount point; NULL when there is none */
	const char *mount_dir;		/* where shares are mounted for the time of a save */
	unsigned timeout_s;		/* one network operation at most this long */
};

struct dest {
	struct dest_url url;
	const struct dest_ops *ops;
	const struct dest_settings *set;
	char password[256];
	int has_password;
	char mnt[PATH_MAX];		/* mounted kinds: the mount point, "" when not mounted */
	char base[PATH_MAX];		/* mounted kinds: the folder results go in (for messages) */
	int base_fd;			/* mounted kinds: that folder, opened without following a link;
					   every operation works below it, never through a path */
	char base_url[2048];		/* WebDAV: the collection results go in, ending in '/' */
};

/* Fills D for URL: its ops, and its password from the credentials. -1 with bb_err. */
int dest_init(struct dest *d, const struct dest_url *url, const struct dest_settings *set);

extern const struct dest_ops dest_fs_ops, dest_webdav_ops;

/* A kind's put says it moved another chunk: the save's watch on a stalled upload (deliver.c). */
void dest_progress(void);

#endif
