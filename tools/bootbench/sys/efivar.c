// SPDX-License-Identifier: MIT
/* efivar.c - UEFI's global variables read from efivarfs (efivar.h). */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "sys/efivar.h"
#include "sys/root.h"

#define GLOBAL_GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"

long efi_global_var(const char *name, unsigned char *buf, size_t len)
{
	char path[PATH_MAX];
	unsigned char raw[4096 + 4];
	ssize_t n, got = 0;
	int fd;

	root_path(path, sizeof(path), "/sys/firmware/efi/efivars/%s-" GLOBAL_GUID, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < (ssize_t)sizeof(raw) && (n = read(fd, raw + got, sizeof(raw) - got)) > 0)
		got += n;
	close(fd);
	/* a variable that fills the buffer may be longer: not read whole, not trusted */
	if (got < 4 || got == (ssize_t)sizeof(raw) || (size_t)(got - 4) > len)
		return -1;
	memcpy(buf, raw + 4, got - 4);
	return got - 4;
}
