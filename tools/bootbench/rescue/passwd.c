// SPDX-License-Identifier: MIT
/*
 * passwd.c - root's shell from a passwd text (passwd.h).
 */
#include <stdio.h>
#include <string.h>

#include "rescue/passwd.h"

void passwd_root_shell(char *text, char *out, size_t len)
{
	char *line, *shell;

	out[0] = 0;
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "root:", 5))
			continue;
		line[strcspn(line, "\n")] = '\0';	/* the last field of this line, not of the file */
		shell = strrchr(line, ':');
		if (shell && shell[1] == '/')
			snprintf(out, len, "%s", shell + 1);
		return;
	}
}
