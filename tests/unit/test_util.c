// SPDX-License-Identifier: MIT
/*
 * test_util.c - unmount_patiently: a filesystem a process still holds for a
 * moment is unmounted once it lets go, not detached while it is in use; a
 * directory with nothing mounted is an error at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "lib/util.h"

#define HOLD_NS (300 * 1000000ull)

static int mounted(const char *dir)
{
	char line[1024], src[512], mnt[512];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%511s %511s", src, mnt) == 2 && !strcmp(mnt, dir))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	char dir[] = "/tmp/bbunit.XXXXXX", file[64], c;
	int pipefd[2], status;
	uint64_t t0, waited;
	pid_t child;

	if (!mkdtemp(dir) || pipe(pipefd))
		return perror("test_util"), 1;
	if (mount("tmpfs", dir, "tmpfs", 0, "size=1m")) {
		printf("note: cannot mount tmpfs here (%s): unmount_patiently not checked\n", strerror(errno));
		rmdir(dir);
		return unit_done();
	}
	snprintf(file, sizeof(file), "%s/held", dir);
	child = fork();
	if (child == 0) {
		int fd = open(file, O_CREAT | O_RDWR, 0600);

		/* says it holds the file, holds it a while, then lets go by exiting */
		if (write(pipefd[1], "h", 1) != 1 || fd < 0)
			_exit(1);
		sleep_ns(HOLD_NS);
		_exit(0);
	}
	CHECK(read(pipefd[0], &c, 1) == 1, "the child did not start");
	t0 = now_ns();
	CHECK(unmount_patiently(dir) == 0, "unmount failed: %s", strerror(errno));
	waited = now_ns() - t0;
	/* a lazy detach would return at once, with the file still open */
	CHECK(waited >= HOLD_NS / 2, "returned after %llu ms, while the file was still open",
	      (unsigned long long)(waited / 1000000));
	CHECK(!mounted(dir), "%s is still mounted", dir);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && !WEXITSTATUS(status),
	      "the child holding the file failed");
	errno = 0;
	CHECK(unmount_patiently(dir) == -1 && errno == EINVAL, "nothing mounted: got errno %d", errno);
	rmdir(dir);
	return unit_done();
}
