// SPDX-License-Identifier: MIT
/* caps.c - keeping only the named capabilities (caps.h). */
#include "safety/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int caps_keep_only(const int *keep, unsigned n)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { { 0 } }, now[2];
	unsigned i;
	int cap;

	for (cap = 0; cap <= CAP_LAST_CAP + 8; cap++) {
		int kept = 0;

		for (i = 0; i < n; i++)
			kept |= keep[i] == cap;
		/* EINVAL past the kernel's last capability: the loop's end */
		if (!kept && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return -1;
	}
	if (syscall(SYS_capget, &hdr, now) < 0)
		return -1;
	/* kept only where held now: a container may not have given them */
	for (i = 0; i < n; i++) {
		unsigned k = (unsigned)keep[i] / 32, bit = 1u << (keep[i] % 32);

		data[k].permitted |= now[k].permitted & bit;
		data[k].effective |= now[k].permitted & bit;
		data[k].inheritable |= now[k].inheritable & now[k].permitted & bit;
	}
	return syscall(SYS_capset, &hdr, data) < 0 ? -1 : 0;
}
