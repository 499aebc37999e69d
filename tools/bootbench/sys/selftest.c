// SPDX-License-Identifier: MIT
/*
 * selftest.c - a drive's own self-test (selftest.h). NVMe base
 * specification: Device Self-test (opcode 14h, CDW10 bits 3:0 = 1 short,
 * 2 extended; NSID FFFFFFFFh for the controller and every namespace) and
 * the Device Self-test log (page 06h: byte 0 the operation in progress,
 * byte 1 its completion; from byte 4 the newest result, its low nibble
 * 0 = completed without error, 1-4, 8-9 aborted, 5-7 failed). ATA:
 * smartctl -t short|long, then smartctl -j -c until ata_smart_data's
 * self_test status is no longer "in progress" (value 0: completed without
 * error).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/selftest.h"

static const char *const nvme_results[16] = {
	"completed without error", "aborted by a Device Self-test command", "aborted by a controller reset",
	"aborted: a namespace was removed", "aborted by a Format NVM command", "a fatal or unknown test error",
	"completed with a failed segment (which one is unknown)", "completed with one or more failed segments",
	"aborted for an unknown reason", "aborted by a Sanitize operation",
};

static int nvme_admin(int fd, struct nvme_admin_cmd *cmd)
{
	int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);

	return rc;	/* 0, a positive NVMe status, or -1 with errno */
}

static enum selftest_outcome nvme_selftest(const char *name, int extended, double max_s,
					   volatile sig_atomic_t *stop, char *words, size_t len)
{
	unsigned char log[564];
	struct nvme_admin_cmd cmd = { 0 };
	char ctrl[64], *p;
	uint64_t t0 = now_ns();
	int fd, rc;

	snprintf(ctrl, sizeof(ctrl), "/dev/%s", name);
	p = strchr(ctrl + 9, 'n');	/* /dev/nvme0n1 -> /dev/nvme0 */
	if (p)
		*p = 0;
	fd = open(ctrl, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(words, len, "%s: %s", ctrl, strerror(errno));
		return SELFTEST_REFUSED;
	}
	cmd.opcode = 0x14;
	cmd.nsid = 0xffffffff;
	cmd.cdw10 = extended ? 2 : 1;
	rc = nvme_admin(fd, &cmd);
	if (rc) {
		if (rc > 0)
			snprintf(words, len, "the controller refused Device Self-test: NVMe status 0x%x%s", rc,
				 (rc & 0xff) == 0x01 ? " (Invalid Command Opcode: it has no self-test)" :
				 (rc & 0xff) == 0x1d ? " (a self-test is already running)" : "");
		else
			snprintf(words, len, "Device Self-test: %s", strerror(errno));
		close(fd);
		return SELFTEST_REFUSED;
	}
	for (;;) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.opcode = 0x02;	/* Get Log Page */
		cmd.nsid = 0xffffffff;
		cmd.addr = (uintptr_t)log;
		cmd.data_len = sizeof(log);
		cmd.cdw10 = 0x06 | ((sizeof(log) / 4 - 1) << 16);
		rc = nvme_admin(fd, &cmd);
		if (rc) {
			snprintf(words, len, "the Device Self-test log could not be read: %s",
				 rc > 0 ? "NVMe status" : strerror(errno));
			close(fd);
			return SELFTEST_REFUSED;
		}
		if (!(log[0] & 0x0f)) {
			unsigned result = log[4] & 0x0f;

			close(fd);
			if (result == 0x0f) {
				snprintf(words, len, "the drive logged no result for its self-test");
				return SELFTEST_REFUSED;
			}
			snprintf(words, len, "%s self-test %s", extended ? "extended" : "short",
				 nvme_results[result] ? nvme_results[result] : "ended with an unknown result");
			return result == 0 ? SELFTEST_PASSED : result >= 5 && result <= 7 ? SELFTEST_FAILED
											  : SELFTEST_UNFINISHED;
		}
		if (*stop || (now_ns() - t0) / 1e9 > max_s) {
			/* abort it: the drive is handed back as it was found */
			memset(&cmd, 0, sizeof(cmd));
			cmd.opcode = 0x14;
			cmd.nsid = 0xffffffff;
			cmd.cdw10 = 0x0f;
			nvme_admin(fd, &cmd);
			close(fd);
			snprintf(words, len, "self-test not finished (%u%% done) when its time was up; aborted", log[1]);
			return SELFTEST_UNFINISHED;
		}
		sleep_ns(1000000000);
	}
}

static enum selftest_outcome ata_selftest(const char *name, int extended, double max_s, volatile sig_atomic_t *stop,
					  char *words, size_t len)
{
	char dev[64], *out = xcalloc(1, 1 << 20);
	char *start[] = { "smartctl", "-t", extended ? "long" : "short", dev, NULL };
	char *poll[] = { "smartctl", "-j", "-c", dev, NULL };
	enum selftest_outcome o = SELFTEST_UNFINISHED;
	uint64_t t0 = now_ns();
	int rc;

	snprintf(dev, sizeof(dev), "/dev/%s", name);
	rc = spawn(start, NULL, 0, out, 1 << 20);	/* consent: the drive tests itself, no data is written */
	/* smartctl's exit status: bits 0-2 are the command's own failures */
	if (rc < 0 || rc & 0x07) {
		const char *l = strstr(out, "\n\n");

		snprintf(words, len, "smartctl -t %s refused (exit %d): %.200s", extended ? "long" : "short", rc,
			 l ? l + 2 : out);
		free(out);
		return SELFTEST_REFUSED;
	}
	while (!*stop && (now_ns() - t0) / 1e9 <= max_s) {
		json_error_t e;
		json_t *root, *st, *val, *str;

		sleep_ns(2000000000);
		spawn(poll, NULL, 0, out, 1 << 20);	/* consent: smartctl -c only reads */
		root = json_loads(out, 0, &e);
		st = json_object_get(json_object_get(json_object_get(root, "ata_smart_data"), "self_test"), "status");
		val = json_object_get(st, "value");
		str = json_object_get(st, "string");
		if (!json_is_integer(val)) {
			json_decref(root);
			snprintf(words, len, "smartctl -c gives no self-test status");
			o = SELFTEST_REFUSED;
			break;
		}
		if ((json_integer_value(val) >> 4) != 0x0f) {	/* 0xF_: in progress */
			snprintf(words, len, "%s self-test: %s", extended ? "extended" : "short",
				 json_is_string(str) ? json_string_value(str) : "ended");
			o = json_integer_value(val) == 0 ? SELFTEST_PASSED : SELFTEST_FAILED;
			json_decref(root);
			break;
		}
		json_decref(root);
	}
	if (o == SELFTEST_UNFINISHED) {
		char *abort_[] = { "smartctl", "-X", dev, NULL };

		spawn(abort_, NULL, 0, NULL, 0);	/* consent: stops the drive's own test */
		snprintf(words, len, "self-test not finished when its time was up; aborted");
	}
	free(out);
	return o;
}

enum selftest_outcome drive_selftest(const char *name, int extended, double max_s, volatile sig_atomic_t *stop,
				     char *words, size_t len)
{
	if (!strncmp(name, "nvme", 4))
		return nvme_selftest(name, extended, max_s, stop, words, len);
	if (!strncmp(name, "sd", 2))
		return ata_selftest(name, extended, max_s, stop, words, len);
	snprintf(words, len, "%s has no self-test bootbench can start (NVMe and ATA drives have)", name);
	return SELFTEST_REFUSED;
}
