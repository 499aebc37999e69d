// SPDX-License-Identifier: MIT
/* iosched.c - a disk's I/O scheduler switched for a run (iosched.h). */
#include "sys/iosched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "lib/util.h"

/* The queue/scheduler file of the disk holding dev (a partition: its parent's). */
static int scheduler_path(dev_t dev, char *path, size_t len)
{
	char dir[128];
	struct stat st;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (!stat(dir, &st))
		snprintf(path, len, "/sys/dev/block/%u:%u/../queue/scheduler", major(dev), minor(dev));
	else
		snprintf(path, len, "/sys/dev/block/%u:%u/queue/scheduler", major(dev), minor(dev));
	return access(path, R_OK) ? -1 : 0;
}

/* "mq-deadline kyber [bfq] none": the one in brackets, and whether name is offered */
static int read_scheduler(const char *path, char *cur, size_t len, const char *name, int *offered)
{
	char buf[256], *tok, *save;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	*cur = 0;
	*offered = 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		size_t l = strlen(tok);

		if (tok[0] == '[' && tok[l - 1] == ']') {
			tok[l - 1] = 0;
			tok++;
			snprintf(cur, len, "%s", tok);
		}
		if (!strcmp(tok, name))
			*offered = 1;
	}
	return *cur ? 0 : -1;
}

static int write_scheduler(const char *path, const char *name)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;	/* consent: a sysfs setting, no data */

	if (fd < 0)
		return -1;
	rc = write(fd, name, strlen(name)) < 0 ? -1 : 0;
	close(fd);
	return rc;
}

int iosched_set(dev_t dev, const char *name, struct iosched_saved *saved)
{
	char path[300], cur[32];
	unsigned i;
	int offered;

	if (scheduler_path(dev, path, sizeof(path)))
		return set_err("ioscheduler=%s: device %u:%u has no I/O scheduler to set", name, major(dev),
			       minor(dev));
	for (i = 0; i < saved->n; i++)
		if (!strcmp(saved->q[i].path, path))
			return 0;	/* switched already, for another target on it */
	if (read_scheduler(path, cur, sizeof(cur), name, &offered))
		return set_err("ioscheduler=%s: cannot read %s", name, path);
	if (!offered)
		return set_err("ioscheduler=%s: the disk of device %u:%u does not offer it (%s)", name, major(dev),
			       minor(dev), path);
	if (saved->n == IOSCHED_MAX)
		return set_err("ioscheduler=%s: more than %d disks", name, IOSCHED_MAX);
	if (!strcmp(cur, name))
		return 0;
	if (write_scheduler(path, name))
		return set_err("ioscheduler=%s: cannot write %s: %s", name, path, strerror(errno));
	snprintf(saved->q[saved->n].path, sizeof(saved->q[0].path), "%s", path);
	snprintf(saved->q[saved->n].name, sizeof(saved->q[0].name), "%s", cur);
	saved->n++;
	return 0;
}

void iosched_restore(struct iosched_saved *saved)
{
	while (saved->n) {
		saved->n--;
		if (write_scheduler(saved->q[saved->n].path, saved->q[saved->n].name))
			note("could not put back the I/O scheduler %s in %s", saved->q[saved->n].name,
			     saved->q[saved->n].path);
	}
}
