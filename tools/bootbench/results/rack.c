// SPDX-License-Identifier: MIT
/*
 * rack.c - a rack's machines, what they reported, and their states
 * (rack.h). Everything read here comes from outside: the user's CSV, the
 * files on a share any machine could write, the labels machines pushed to
 * Prometheus. Text from them is kept to printable ASCII (the rest shown as
 * ?), never used as a path or a shell word; only the share's folders,
 * found by walking it, are opened, and no link is followed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/ident.h"
#include "sys/machine.h"
#include "results/load.h"
#include "results/rack.h"
#include "save/deliver.h"

/* A live run pushes every 5 s; its saved folder is written a moment after its last push. */
#define SAME_RUN_S 120
/* a run dated more than a day ahead of this machine's clock was dated by a wrong one */
#define FUTURE_S 86400

static const char *const state_names[RACK_STATES] = { "passed", "failed", "running", "silent", "never seen",
							"unreadable", "empty" };

const char *rack_state_name(enum rack_state s)
{
	return s < RACK_STATES ? state_names[s] : "?";
}

/* Text from outside, kept to printable ASCII: a terminal or a page shows what it says, nothing more. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src && src[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)src[i] < 32 || (unsigned char)src[i] > 126 ? '?' : src[i];
	dst[i] = 0;
}

static void append(char *dst, size_t len, const char *item)
{
	size_t n = strlen(dst);

	size_t k = strlen(item);

	/* what does not fit is left out whole, never cut */
	if (n + 2 + k < len) {
		if (n)
			memcpy(dst + n, ", ", 2), n += 2;
		memcpy(dst + n, item, k + 1);
	}
}

static struct rack_machine *add_machine(struct rack *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->m = xrealloc(r->m, r->cap * sizeof(*r->m));
	}
	memset(&r->m[r->n], 0, sizeof(r->m[r->n]));
	return &r->m[r->n++];
}

/* ---- the machines by key (sys/ident.h): hashed, a rack of 10,000 is never searched pairwise ---- */

static uint32_t hash_of(const char *key)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

static const char *key_at(const struct rack *r, unsigned entry)
{
	const struct rack_machine *m = &r->m[(entry - 1) / 3];

	return (entry - 1) % 3 == 2 ? m->alias_key : (entry - 1) % 3 ? m->mac_key : m->key;
}

static void hash_put(struct rack *r, unsigned entry);

static void hash_grow(struct rack *r)
{
	unsigned *old = r->hash, cap = r->hcap;

	r->hcap = r->hcap ? r->hcap * 2 : 1024;
	r->hash = xcalloc(r->hcap, sizeof(*r->hash));
	r->hn = 0;
	for (unsigned i = 0; i < cap; i++)
		if (old[i])
			hash_put(r, old[i]);
	free(old);
}

/* The machine whose key is KEY: its index, -1 when none. */
static long hash_find(const struct rack *r, const char *key)
{
	if (!*key || !r->hcap)
		return -1;
	for (uint32_t i = hash_of(key) & (r->hcap - 1);; i = (i + 1) & (r->hcap - 1)) {
		if (!r->hash[i])
			return -1;
		if (!strcmp(key_at(r, r->hash[i]), key))
			return (long)(r->hash[i] - 1) / 3;
	}
}

static void hash_put(struct rack *r, unsigned entry)
{
	const char *key = key_at(r, entry);

	if (!*key)
		return;
	if (2 * (r->hn + 1) > r->hcap)
		hash_grow(r);
	for (uint32_t i = hash_of(key) & (r->hcap - 1);; i = (i + 1) & (r->hcap - 1))
		if (!r->hash[i]) {
			r->hash[i] = entry;
			r->hn++;
			return;
		}
}

/* Files machine I under its keys (the first of a key keeps it). */
static void hash_machine(struct rack *r, unsigned i)
{
	if (r->m[i].key[0] && hash_find(r, r->m[i].key) < 0)
		hash_put(r, i * 3 + 1);
	if (r->m[i].mac_key[0] && hash_find(r, r->m[i].mac_key) < 0)
		hash_put(r, i * 3 + 2);
}

/*
 * Listed machine I is also known by KEY (its serial, learnt from a saved
 * run's inventory where the list gave its MAC): its heartbeats and pushes,
 * named by the serial, are its own. KEY is no machine's yet (the caller
 * looked).
 */
static void hash_alias(struct rack *r, unsigned i, const char *key)
{
	snprintf(r->m[i].alias_key, sizeof(r->m[i].alias_key), "%s", key);
	hash_put(r, i * 3 + 3);
}

/* ---- the CSV ---- */

enum column { COL_OTHER, COL_SERIAL, COL_MAC, COL_POSITION };

/*
 * Splits LINE into at most MAX fields at SEP, RFC 4180's quoting undone
 * ("a ""b""" is a "b"); blanks around a field are not part of it. Returns
 * the count, -1 for a quote left open.
 */
static int split_fields(char *line, char sep, char **field, int max)
{
	int n = 0;
	char *in = line, *out = line;

	for (;;) {
		char *start = out;

		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '"') {
			for (in++;; in++) {
				if (!*in)
					return -1;
				if (*in == '"' && in[1] == '"')
					*out++ = *in++;
				else if (*in == '"')
					break;
				else
					*out++ = *in;
			}
			in++;
			while (*in == ' ' || *in == '\t')
				in++;
			if (*in && *in != sep)
				return -1;
		} else {
			while (*in && *in != sep)
				*out++ = *in++;
			while (out > start && (out[-1] == ' ' || out[-1] == '\t'))
				out--;
		}
		if (n < max)
			field[n] = start;
		n++;
		if (!*in) {
			*out = 0;
			return n;
		}
		in++;
		*out++ = 0;
	}
}

/*
 * A column's header as the table below names it: lower case, each run of
 * other characters than letters and digits one blank ("Serial_No." is
 * "serial no", "S/N" is "s n"): asset lists head a column as they please,
 * and a serial column not recognised would leave its machines unchecked.
 */
static void header_normal(const char *name, char *out, size_t len)
{
	size_t k = 0;

	for (; *name && k + 1 < len; name++)
		if (isalnum((unsigned char)*name))
			out[k++] = (char)tolower((unsigned char)*name);
		else if (k && out[k - 1] != ' ')
			out[k++] = ' ';
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = 0;
}

static enum column column_of(const char *name)
{
	static const struct {
		const char *name;
		enum column col;
	} names[] = {
		{ "serial", COL_SERIAL }, { "serial number", COL_SERIAL }, { "serial no", COL_SERIAL },
		{ "serialnumber", COL_SERIAL }, { "s n", COL_SERIAL }, { "sn", COL_SERIAL },
		{ "service tag", COL_SERIAL }, { "system serial", COL_SERIAL }, { "machine", COL_SERIAL },
		{ "mac", COL_MAC }, { "mac address", COL_MAC }, { "macaddress", COL_MAC },
		{ "position", COL_POSITION }, { "rack position", COL_POSITION }, { "location", COL_POSITION },
	};
	char normal[64];

	header_normal(name, normal, sizeof(normal));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(normal, names[i].name))
			return names[i].col;
	return COL_OTHER;
}

/* "serial (Service Tag), position": the columns of a header that were understood, for a person */
static void columns_understood(char **field, const enum column *cols, int n, char *out, size_t len)
{
	static const char *const what[] = { [COL_SERIAL] = "serial", [COL_MAC] = "mac", [COL_POSITION] = "position" };

	out[0] = 0;
	for (int i = 0; i < n; i++)
		if (cols[i] != COL_OTHER) {
			char shown[40], item[64];

			copy_text(shown, sizeof(shown), field[i]);
			snprintf(item, sizeof(item), "%s ('%s')", what[cols[i]], shown);
			append(out, len, item);
		}
}

static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			return 0;
	return 1;
}

#define MAX_COLUMNS 64

int rack_read_csv(struct rack *r, const char *path, FILE *errs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	enum column cols[MAX_COLUMNS];
	char line[4096], sep = ',', understood[300] = "";
	int ncols = 0, bad = 0;
	unsigned lineno = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return set_err("%s: %s", path, strerror(errno));
	}
#define BAD(...) do { fprintf(errs, "%s line %u: ", path, lineno); fprintf(errs, __VA_ARGS__); \
		      fputc('\n', errs); bad++; } while (0)
	for (;;) {
		char *field[MAX_COLUMNS], *text = line;
		size_t len, end = sizeof(line) - 1;
		int n, i;

		/* LINE filled with a byte fgets does not write: the last NUL in it is the one that ends what it read */
		memset(line, 0xff, sizeof(line));
		if (!fgets(line, sizeof(line), f))
			break;
		len = strlen(line);
		lineno++;
		while (end && line[end])
			end--;
		if (end != len) {
			/* a NUL in a line (a transfer's damage, a bad export): what follows it would go unread */
			BAD("a NUL byte at character %zu: not a text file", len + 1);
			break;
		}
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			BAD("longer than %zu characters", sizeof(line) - 2);
			while (len == sizeof(line) - 1 && line[len - 1] != '\n' && fgets(line, sizeof(line), f))
				len = strlen(line);
			continue;
		}
		line[strcspn(line, "\r\n")] = 0;
		/* a spreadsheet's UTF-8 export starts with a byte order mark */
		if (lineno == 1 && !strncmp(text, "\xef\xbb\xbf", 3))
			text += 3;
		if (!text[strspn(text, " \t,;")] || text[strspn(text, " \t")] == '#')
			continue;	/* blank (a spreadsheet's empty row is all separators) or a comment */
		if (!ncols) {
			/* the header: its separator is the file's (a semicolon in some locales' exports) */
			int have = 0;

			sep = strchr(text, ';') && !strchr(text, ',') ? ';' : ',';
			n = split_fields(text, sep, field, MAX_COLUMNS);
			if (n < 0 || n > MAX_COLUMNS) {
				BAD(n < 0 ? "a quote is not closed" : "more than %d columns", MAX_COLUMNS);
				break;
			}
			for (i = 0; i < n; i++) {
				cols[i] = column_of(field[i]);
				for (int k = 0; k < i; k++)
					if (cols[i] != COL_OTHER && cols[k] == cols[i]) {
						char shown[48];

						copy_text(shown, sizeof(shown), field[i]);
						BAD("column '%s' is there twice", shown);
						cols[i] = COL_OTHER;
					}
				have |= cols[i] == COL_SERIAL || cols[i] == COL_MAC;
			}
			columns_understood(field, cols, n, understood, sizeof(understood));
			if (!have) {
				char shown[80];

				copy_text(shown, sizeof(shown), line);
				BAD("the header names no serial or mac column (serial,mac,position; found '%s')", shown);
				break;
			}
			ncols = n;
			continue;
		}
		n = split_fields(text, sep, field, MAX_COLUMNS);
		if (n < 0) {
			BAD("a quote is not closed");
			continue;
		}
		if (n != ncols) {
			BAD("%d field(s), the header has %d", n, ncols);
			continue;
		}
		{
			struct rack_machine m = { .line = lineno };
			int ok = 1;

			for (i = 0; i < n && ok; i++) {
				const char *v = field[i];
				char shown[48];

				if (cols[i] == COL_OTHER || !*v)
					continue;
				copy_text(shown, sizeof(shown), v);	/* said as text, never as the bytes it holds */
				if (!printable(v) || strlen(v) >= (cols[i] == COL_POSITION ? sizeof(m.position) :
								   sizeof(m.serial))) {
					BAD("the %s '%s' is not printable ASCII of at most %zu characters",
					    cols[i] == COL_POSITION ? "position" : "serial", shown,
					    (cols[i] == COL_POSITION ? sizeof(m.position) : sizeof(m.serial)) - 1);
					ok = 0;
				} else if (cols[i] == COL_SERIAL) {
					snprintf(m.serial, sizeof(m.serial), "%s", v);
				} else if (cols[i] == COL_POSITION) {
					snprintf(m.position, sizeof(m.position), "%s", v);
				} else if (mac_normal(v, m.mac)) {
					BAD("'%s' is not a MAC address (aa:bb:cc:dd:ee:ff)", shown);
					ok = 0;
				}
			}
			if (!ok)
				continue;
			/* a placeholder serial beside a MAC (an asset list's "N/A"): the row is listed by its MAC */
			if (m.serial[0] && m.mac[0] && serial_is_placeholder(m.serial))
				m.serial[0] = 0;
			if (!m.serial[0] && !m.mac[0]) {
				/* cells filled, but none a serial or MAC: a machine whose column was not understood,
				 * never an empty position (nothing checked there) */
				for (i = 0; i < n && (cols[i] == COL_POSITION || !*field[i]); i++)
					;
				if (i < n) {
					BAD("no serial or MAC, but other cells are filled: the columns understood are %s "
					    "(a serial column headed otherwise? serial, mac, position)", understood);
					continue;
				}
			}
			if (!m.serial[0] && !m.mac[0] && m.position[0]) {
				/* an empty U of the rack: listed as such, nothing expected there */
				*add_machine(r) = m;
				r->empty++;
				continue;
			}
			if (!m.serial[0] && !m.mac[0]) {
				BAD("no serial and no MAC");
				continue;
			}
			if (m.serial[0] && !m.mac[0] && serial_is_placeholder(m.serial)) {
				char shown[48];

				copy_text(shown, sizeof(shown), m.serial);
				BAD("the serial '%s' is firmware's placeholder, no machine's own: list the machine's MAC", shown);
				continue;
			}
			machine_key(m.serial, m.mac, m.key, sizeof(m.key));
			if (m.mac[0])
				machine_key(NULL, m.mac, m.mac_key, sizeof(m.mac_key));
			{
				long k = hash_find(r, m.key), km = hash_find(r, m.mac_key);

				if (k >= 0 && m.serial[0] && r->m[k].serial[0]) {
					BAD("serial %s is on line %u too", m.serial, r->m[k].line);
					ok = 0;
				} else if (km >= 0 || (k >= 0 && m.mac[0] && !m.serial[0])) {
					BAD("MAC %s is on line %u too", m.mac, r->m[km >= 0 ? km : k].line);
					ok = 0;
				}
			}
			if (ok) {
				*add_machine(r) = m;
				hash_machine(r, r->n - 1);
			}
		}
	}
#undef BAD
	if (!ncols && !bad) {
		fprintf(errs, "%s: no header line (serial,mac,position) and no machine\n", path);
		bad++;
	} else if (!bad && r->n == r->empty) {
		/* a list with nothing to check is a mistake, never "all passed" */
		fprintf(errs, "%s: no machine listed (a header%s only)\n", path, r->empty ? " and empty positions" : "");
		bad++;
	}
	fclose(f);
	r->listed = r->n;
	return bad;
}

/* ---- who a report is ---- */

/*
 * The machine REP is about: a listed one any of its keys (its serial, its
 * name, each of its MACs) matches, else the unlisted one of its name, else
 * a new unlisted one.
 */
/* The key REP's machine is known by (its serial, else its name); -1 when it has none. */
static int own_key(const struct rack_report *rep, char *key, size_t len)
{
	return machine_key(rep->serial, NULL, key, len) && machine_key(rep->machine, NULL, key, len) ? -1 : 0;
}

/*
 * The row listed by a MAC alone that one of REP's MACs names, -1 when none.
 * A row that gives a serial is matched by it alone: a NIC moved to another
 * machine does not bring that machine's runs to it.
 */
static long row_of_macs(const struct rack *r, const struct rack_report *rep)
{
	char key[128];
	long k;

	for (unsigned i = 0; i < rep->nmacs; i++)
		if (!machine_key(NULL, rep->macs[i], key, sizeof(key)) && (k = hash_find(r, key)) >= 0 &&
		    k < (long)r->listed && !r->m[k].serial[0])
			return k;
	return -1;
}

/*
 * Row ROW, listed by its MAC, is the machine OWN (the one whose inventory
 * or heartbeat has the MAC): its pushes and heartbeats, named by OWN, are
 * the row's from now on. A second machine claiming the MAC makes the row
 * unreadable: which of them stands there cannot be told.
 */
static void learn_alias(struct rack *r, long row, const char *own)
{
	struct rack_machine *m = &r->m[row];
	long k;

	if (!*own)
		return;
	if (!m->alias_key[0]) {
		k = hash_find(r, own);
		if (k < 0)
			hash_alias(r, (unsigned)row, own);
		else if (k != row && k >= (long)r->listed && !m->claimed_too[0])
			copy_text(m->claimed_too, sizeof(m->claimed_too), own);	/* reported under OWN before: said */
		return;
	}
	if (strcmp(m->alias_key, own) && !m->claimed_too[0])
		copy_text(m->claimed_too, sizeof(m->claimed_too), own);
}

/*
 * The machine REP is about: a listed one its serial or name matches (or
 * the serial learnt for a row listed by MAC), else a row listed by one of
 * its MACs, else the unlisted one of its name, else a new unlisted one.
 */
static struct rack_machine *machine_of(struct rack *r, const struct rack_report *rep)
{
	char own[128] = "";
	long found = -1, by_mac;

	if (!own_key(rep, own, sizeof(own)))
		found = hash_find(r, own);
	by_mac = row_of_macs(r, rep);
	if (by_mac >= 0 && found >= 0 && found < (long)r->listed && found != by_mac) {
		/* one machine on two lines (its serial on one, a MAC of it on another) is the list's mistake */
		if (!r->m[by_mac].twice) {
			r->m[by_mac].twice = r->m[found].line;
			if (r->errs)
				fprintf(r->errs, "line %u: its MAC is the machine of line %u (what it saved says so): "
					"one machine listed twice\n", r->m[by_mac].line, r->m[found].line);
			r->bad++;
		}
	} else if (by_mac >= 0) {
		learn_alias(r, by_mac, own);
		found = by_mac;
	}
	if (found >= 0)
		return &r->m[found];
	{
		struct rack_machine *m = add_machine(r);

		if (machine_key(rep->machine, NULL, m->key, sizeof(m->key)))
			snprintf(m->key, sizeof(m->key), "%s", rep->machine);
		hash_machine(r, r->n - 1);
		return m;
	}
}

/* ---- the share ---- */

/* The folders of runs (each once) and the heartbeats found by walking a share. */
struct found {
	char **dir, **beat, **cannot, **cannot_why;	/* cannot_why[i]: why cannot[i] was not read */
	unsigned ndir, nbeat, ncannot, ncannot_why;
	FILE *errs;
	unsigned *bad;
};

static void push(char ***list, unsigned *n, const char *s, size_t len)
{
	if (!(*n & (*n - 1)) || !*n)
		*list = xrealloc(*list, (*n ? *n * 2 : 64) * sizeof(**list));
	(*list)[*n] = xcalloc(1, len + 1);
	memcpy((*list)[(*n)++], s, len);
}

/*
 * The files a run folder holds (rootfs/lib/bootbench/results.sh, save's
 * MANIFEST): a folder with any of them is a run's, whatever else it lacks
 * (a copy cut after console.log, an older image's log alone) and whatever
 * they are (a FIFO, a folder named status.json): never passed over for an
 * older run's pass. Its reader says what is wrong with it.
 */
static const char *const run_files[] = { "status.json", "burnin.json", "inventory.json", MANIFEST_NAME, "console.log",
					 "disks.json", NULL };

static int is_run_file(const char *base)
{
	for (unsigned i = 0; run_files[i]; i++)
		if (!strcmp(base, run_files[i]))
			return 1;
	return 0;
}

static void note_file(const char *file, void *arg)
{
	struct found *fs = arg;
	const char *base = strrchr(file, '/');
	size_t len = base ? (size_t)(base - file) : 0, blen;

	base = base ? base + 1 : file;
	blen = strlen(base);
	if (blen > strlen(HEARTBEAT_SUFFIX) && !strcmp(base + blen - strlen(HEARTBEAT_SUFFIX), HEARTBEAT_SUFFIX)) {
		push(&fs->beat, &fs->nbeat, file, strlen(file));
		return;
	}
	if (!is_run_file(base))
		return;
	if (!len || len >= 512)
		return;
	/* a folder's files come one after the other, but for its subfolders': duplicates go when sorted */
	if (fs->ndir && !strncmp(fs->dir[fs->ndir - 1], file, len) && !fs->dir[fs->ndir - 1][len])
		return;
	push(&fs->dir, &fs->ndir, file, len);
}

static void note_unreadable(const char *dir, const char *why, void *arg)
{
	struct found *fs = arg;
	const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char shown[600];

	/* a link for a result file is its folder's reader's to say (folder_json: that run unreadable) */
	if (!strcmp(why, RS_LINK_WHY) && is_run_file(base)) {
		note_file(dir, arg);
		return;
	}

	copy_text(shown, sizeof(shown), dir);
	fprintf(fs->errs, "%s: cannot read it: %s\n", shown, why);
	(*fs->bad)++;
	push(&fs->cannot, &fs->ncannot, dir, strlen(dir));
	push(&fs->cannot_why, &fs->ncannot_why, why, strlen(why));
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * FILE in DIR as JSON, or NULL when it is not there. When it is there but
 * cannot be read or is not JSON, NULL and REP is unreadable, with why.
 */
static json_t *folder_json(const char *dir, const char *file, struct rack_report *rep)
{
	char path[640];
	json_t *j;

	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* lstat: a link that leads nowhere is there, and unreadable, not absent */
	if (lstat(path, &st) && errno == ENOENT)
		return NULL;
	j = rs_read_json(path);
	if (!j && !rep->unreadable) {
		const char *why = strstr(bb_err, ": cannot read it: ") ? strstr(bb_err, ": cannot read it: ") + 2 :
				  strstr(bb_err, ": not JSON") ? strstr(bb_err, ": not JSON") + 2 : bb_err;
		char shown[200];

		copy_text(shown, sizeof(shown), why);
		rep->unreadable = 1;
		snprintf(rep->failures, sizeof(rep->failures), "%s: %s", file, shown);
	}
	return j;
}

static void unreadable(struct rack_report *rep, const char *why)
{
	if (!rep->unreadable)
		snprintf(rep->failures, sizeof(rep->failures), "%s", why);
	rep->unreadable = 1;
}

/* The result folder's name: UTC time, machine, run id (rootfs/lib/bootbench/results.sh). */
static time_t folder_time(const char *name)
{
	struct tm tm = { 0 };
	const char *end = strptime(name, "%Y%m%dT%H%M%SZ_", &tm);

	return end ? timegm(&tm) : 0;
}

/* The machine a run folder's name (TIME_MACHINE_RUNID) names into REP, else the name itself. */
static void machine_of_name(struct rack_report *rep, const char *name)
{
	/* the machine's name may hold _ (ABC_123_4); the time and the run id do not */
	const char *a = strchr(name, '_'), *b = strrchr(name, '_');

	if (a && b > a + 1 && b - a - 1 < (long)sizeof(rep->machine))
		snprintf(rep->machine, sizeof(rep->machine), "%.*s", (int)(b - a - 1), a + 1);
	else
		copy_text(rep->machine, sizeof(rep->machine), name);
}

/* A run saved by an older image (no status.json): its console log's last "exit status N", -1 when none. */
static int logged_exit_status(const char *dir)
{
	static const char mark[] = "unattended run finished, exit status ";
	char path[640], buf[65536];
	int fd, status = -1;
	ssize_t n;
	off_t size;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	size = lseek(fd, 0, SEEK_END);
	/* the end of the log is enough: the run's last line is near it */
	n = pread(fd, buf, sizeof(buf) - 1, size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (char *p = buf; (p = memmem(p, buf + n - p, mark, sizeof(mark) - 1)); p += sizeof(mark) - 1)
		status = atoi(p + sizeof(mark) - 1);
	return status;
}

/* Whether status.json's hook status KEY says a hook failed (not 0, or not a number); absent: no hook ran. */
static int hook_failed(json_t *status, const char *key)
{
	json_t *v = json_object_get(status, key);

	return v && (!json_is_integer(v) || json_integer_value(v));
}

/* status.json: only a whole one, with an exit status that is a number, says how the run ended. */
static void read_status(struct rack_report *rep, json_t *status, const char *name)
{
	json_t *rcj = json_object_get(status, "exit_status"), *failed = json_object_get(status, "failed_targets"), *t;
	char buf[256];
	struct tm tm = { 0 };
	size_t i;
	int rc;

	if (!json_is_integer(rcj) || json_integer_value(rcj) < 0 || json_integer_value(rcj) > 255) {
		unreadable(rep, rcj ? "status.json: its exit_status is not a number from 0 to 255" :
				      "status.json: no exit_status");
		return;
	}
	if (!json_is_integer(json_object_get(status, "bootbench_status")) ||
	    json_integer_value(json_object_get(status, "bootbench_status")) < 1) {
		unreadable(rep, "status.json: not bootbench's (no bootbench_status of 1 or more)");
		return;
	}
	rc = (int)json_integer_value(rcj);
	/* a run that says it passed and names what failed says two things: neither is believed */
	if (!rc && (json_array_size(failed) || hook_failed(status, "hook_before_status") ||
		    hook_failed(status, "hook_after_status"))) {
		unreadable(rep, "status.json: exit_status 0 beside a failed target or hook: it contradicts itself");
		return;
	}
	if (failed && !json_is_array(failed)) {
		unreadable(rep, "status.json: failed_targets is not a list");
		return;
	}
	copy_text(rep->what, sizeof(rep->what), rs_str(status, "run", buf, sizeof(buf)));
	rep->failed = rc != 0;
	/* clock.sh's word: NTP did not set the clock (a CMOS reset to 2000): the run's name and times are not when it ran */
	if (json_is_object(json_object_get(status, "clock")) &&
	    !json_is_true(json_object_get(json_object_get(status, "clock"), "set")))
		rep->clock_unset = 1;
	json_array_foreach(failed, i, t)
		if (json_is_string(t)) {
			char item[160];

			copy_text(buf, 128, json_string_value(t));
			snprintf(item, sizeof(item), "failed on %.128s", buf);
			append(rep->failures, sizeof(rep->failures), item);
		}
	if (rc == 2 && !rep->failures[0])
		snprintf(rep->failures, sizeof(rep->failures), "cancelled before it ran (exit status 2: %.150s/console.log "
			 "says why)", name);
	else if (rc && !rep->failures[0])
		snprintf(rep->failures, sizeof(rep->failures), "exit status %d", rc);
	if (json_is_string(json_object_get(status, "ended")) &&
	    strptime(rs_str(status, "ended", buf, sizeof(buf)), "%Y-%m-%dT%H:%M:%SZ", &tm))
		rep->ended = timegm(&tm);
}

/* burnin.json: its verdict must be one of the four; its failed components are named. */
static void read_burnin(struct rack_report *rep, json_t *burnin, int have_status)
{
	json_t *comps = json_object_get(burnin, "components"), *c;
	char buf[256], v[16];
	size_t i;

	rs_str(burnin, "verdict", v, sizeof(v));
	if (!json_is_object(burnin) || !json_is_string(json_object_get(burnin, "bootbench_burnin"))) {
		unreadable(rep, "burnin.json: not bootbench's (no bootbench_burnin)");
		return;
	}
	if (strcmp(v, "PASS") && strcmp(v, "FAIL") && strcmp(v, "ERROR") && strcmp(v, "INTERRUPTED")) {
		unreadable(rep, "burnin.json: no verdict (PASS, FAIL, ERROR or INTERRUPTED)");
		return;
	}
	/* PASS is every component asked for passing: one that did not beside it is a contradiction */
	if (!strcmp(v, "PASS")) {
		json_array_foreach(comps, i, c) {
			char cv[16];

			rs_str(c, "verdict", cv, sizeof(cv));
			if (strcmp(cv, "PASS") && strcmp(cv, "SKIPPED")) {
				unreadable(rep, "burnin.json: verdict PASS beside a component that did not pass: it "
						"contradicts itself");
				return;
			}
		}
	}
	if (!rep->what[0])
		snprintf(rep->what, sizeof(rep->what), "burnin");
	/* a run whose status says 0 and whose burn-in did not pass did not pass */
	if (strcmp(v, "PASS"))
		rep->failed = 1;
	if (have_status && rep->failures[0] && !strncmp(rep->failures, "exit status ", 12))
		rep->failures[0] = 0;	/* the components say better what failed */
	json_array_foreach(comps, i, c) {
		char item[96];

		rs_str(c, "verdict", v, sizeof(v));
		/* a component not asked for is there as SKIPPED */
		if (!strcmp(v, "FAIL") || !strcmp(v, "ERROR")) {
			copy_text(buf, 40, rs_str(c, "name", buf, sizeof(buf)));
			snprintf(item, sizeof(item), "%.40s %s", buf, v);
			append(rep->failures, sizeof(rep->failures), item);
		}
	}
}

/* Whether run A supersedes run B of the same machine: a later start (then end, then name); a result its own heartbeat. */
static int supersedes(const struct rack_report *a, const struct rack_report *b)
{
	int c = strcmp(a->run, b->run);

	if (!c)
		return b->heartbeat && !a->heartbeat;
	/*
	 * A heartbeat and another run's saved result: the names (the machine's
	 * clock) order them, and so do the share's clock's stamps (the last
	 * beat, the result's arrival), which a copy of the share (cp -r: every
	 * mtime the copy's, in its order) makes up. Either saying the heartbeat
	 * is newer makes it so: a machine's clock gone back (a battery gone)
	 * names its new run in the past, a copy stamps an old result after a
	 * newer run's beat, and neither may make a run going (or dead) passed.
	 */
	if (a->heartbeat != b->heartbeat) {
		const struct rack_report *beat = a->heartbeat ? a : b, *result = a->heartbeat ? b : a;
		int named_later = beat->started && result->started && beat->started > result->started;
		int beat_later = beat->shared_at && result->shared_at && beat->shared_at > result->shared_at;
		int named_earlier = beat->started && result->started && beat->started < result->started;

		if (named_later || beat_later)
			return a == beat;
		if (named_earlier || (beat->shared_at && result->shared_at && beat->shared_at < result->shared_at))
			return a == result;
		/* a tie both ways (a share's coarse clock, one second's names): the names, then the run ids */
	}
	if (a->started != b->started)
		return a->started > b->started;
	if (a->ended != b->ended)
		return a->ended > b->ended;
	return c > 0;
}

static int verdict_of(const struct rack_report *rep)
{
	return rep->unreadable ? -1 : rep->failed;
}

/*
 * Runs A and B of one machine began and ended in the same second (a run
 * cancelled and restarted at once, a clock's coarse second): nothing says
 * which is newer, and their verdicts differ. Their run ids are random.
 */
static int same_second(const struct rack_report *a, const char *b_run, time_t b_started, time_t b_ended)
{
	return !a->heartbeat && strcmp(a->run, b_run) && a->started == b_started && a->ended == b_ended;
}

/*
 * REP, a saved result, is its kind's newest on machine M (or not). Each
 * kind is judged on its own newest run: the machine passes only when
 * every kind's newest passed.
 */
static void note_kind(struct rack_machine *m, const struct rack_report *rep)
{
	struct rack_kind *k = NULL;
	int verdict = verdict_of(rep);

	for (unsigned i = 0; i < m->nkinds && !k; i++)
		if (!strcmp(m->kinds[i].kind, rep->what))
			k = &m->kinds[i];
	if (!k) {
		m->kinds = xrealloc(m->kinds, (m->nkinds + 1) * sizeof(*m->kinds));
		k = &m->kinds[m->nkinds++];
		memset(k, 0, sizeof(*k));
		copy_text(k->kind, sizeof(k->kind), rep->what);
	} else if (!strcmp(k->run, rep->run)) {
		/* the same run saved twice: copies that disagree are no verdict */
		if (k->failed != verdict)
			k->failed = -1;
		return;
	} else {
		struct rack_report older = { .started = k->started, .ended = k->ended, .shared_at = k->shared_at };

		snprintf(older.run, sizeof(older.run), "%s", k->run);
		if (same_second(rep, k->run, k->started, k->ended) && k->failed != verdict) {
			/* two runs of one second, a pass and not: neither is its kind's newest verdict */
			if (supersedes(rep, &older))
				snprintf(k->run, sizeof(k->run), "%s", rep->run);
			k->failed = -1;
			snprintf(k->failures, sizeof(k->failures), "two runs in the same second, one passed and one not");
			return;
		}
		if (!supersedes(rep, &older))
			return;
	}
	snprintf(k->run, sizeof(k->run), "%s", rep->run);
	k->started = rep->started;
	k->ended = rep->ended;
	k->shared_at = rep->shared_at;
	k->failed = verdict;
	snprintf(k->failures, sizeof(k->failures), "%s", rep->failures);
	snprintf(k->where, sizeof(k->where), "%s", rep->where);
}

/* The newest run of another kind than KIND (NULL: of any kind) that did not pass, NULL when none. */
static const struct rack_kind *kind_not_passed(const struct rack_machine *m, const char *kind)
{
	for (unsigned i = 0; i < m->nkinds; i++)
		if ((!kind || strcmp(m->kinds[i].kind, kind)) && m->kinds[i].failed)
			return &m->kinds[i];
	return NULL;
}

static int has_mac(const struct rack_report *rep, const char *mac)
{
	for (unsigned i = 0; i < rep->nmacs; i++)
		if (!strcmp(rep->macs[i], mac))
			return 1;
	return 0;
}

/* The machine REP is about, when the rack has it already (-1: none); nothing learnt, nothing added. */
static long machine_known(const struct rack *r, const struct rack_report *rep)
{
	char own[128];
	long k = -1;

	if (!own_key(rep, own, sizeof(own)))
		k = hash_find(r, own);
	return k >= 0 ? k : row_of_macs(r, rep);
}

/* A saved run (not a heartbeat) that did not pass: failed, unreadable or of no verdict. */
static int saved_not_passed(const struct rack_report *rep)
{
	return !rep->heartbeat && !(!rep->unreadable && rep->failed == 0);
}

/* The last run of M that did not pass to reach the share, by its clock. */
static void note_bad_arrival(struct rack_machine *m, const struct rack_report *rep)
{
	if (saved_not_passed(rep) && rep->shared_at > m->bad_arrived_at) {
		m->bad_arrived_at = rep->shared_at;
		copy_text(m->bad_arrived_run, sizeof(m->bad_arrived_run), rep->run);
	}
}

/*
 * Two boards under one serial (a cloned FRU, a serial written by hand)
 * listed by that serial alone: one machine cannot run two runs at once,
 * so two of its saved runs whose times overlap, their NICs with no MAC in
 * common, are two machines' and the one that passed says nothing of the
 * other. Runs whose end is not said (an older image's) are not weighed.
 */
static void note_span(struct rack_machine *m, const struct rack_report *rep)
{
	struct rack_span *sp;

	if (rep->heartbeat || !rep->nmacs || !rep->started || rep->ended < rep->started)
		return;
	for (unsigned i = 0; i < m->nspans && !m->two_boards[0]; i++) {
		const struct rack_span *o = &m->spans[i];
		unsigned common = 0;

		if (!strcmp(o->run, rep->run) || rep->started >= o->ended || o->started >= rep->ended)
			continue;
		for (unsigned k = 0; k < o->nmacs && !common; k++)
			common = has_mac(rep, o->macs[k]);
		if (!common)
			snprintf(m->two_boards, sizeof(m->two_boards), "%.120s and %.120s", o->run, rep->run);
	}
	m->spans = xrealloc(m->spans, (m->nspans + 1) * sizeof(*m->spans));
	sp = &m->spans[m->nspans++];
	sp->started = rep->started;
	sp->ended = rep->ended;
	copy_text(sp->run, sizeof(sp->run), rep->run);
	memcpy(sp->macs, rep->macs, sizeof(sp->macs));
	sp->nmacs = rep->nmacs;
}

static void add_saved(struct rack *r, struct rack_report *rep)
{
	struct rack_machine *m;

	/*
	 * A campaign: a run that began before it (or, its name saying no time,
	 * ended before it) is left out. Never one whose clock was not set: its
	 * times are not when it ran (a rerun of last hour may be dated 2000).
	 */
	if (r->since && !rep->heartbeat && !rep->clock_unset && ((rep->started && rep->started < r->since) ||
					     (!rep->started && rep->ended && rep->ended < r->since) ||
					     (!rep->started && !rep->ended))) {
		/* a run with no time at all (a folder renamed by hand, no end said) cannot be this campaign's */
		r->before_since++;
		/*
		 * But one that did not pass and reached the share after this
		 * campaign's pass may be a rerun its clock (reset, no NTP) dated
		 * before the campaign: its arrival is weighed as without --since,
		 * once every run is placed (its machine may be met later).
		 */
		if (saved_not_passed(rep) && rep->shared_at) {
			r->late = xrealloc(r->late, (r->nlate + 1) * sizeof(*r->late));
			r->late[r->nlate++] = *rep;
		}
		return;
	}
	m = machine_of(r, rep);
	if (m->line && !m->serial[0] && !m->mac[0])
		return;	/* never an empty position's (they have no key) */
	/*
	 * A row that gives the serial and the MAC: a run of that serial whose
	 * NICs lack the MAC is another board's (a cloned FRU, a serial written
	 * by hand), never this row's pass.
	 */
	if (m->line && m->serial[0] && m->mac[0] && rep->nmacs && !has_mac(rep, m->mac)) {
		char why[256];

		snprintf(why, sizeof(why), "serial %.100s was seen on a machine without MAC %s (another board with "
			 "that serial?)", m->serial, m->mac);
		unreadable(rep, why);
	}
	/* one run saved twice (a retried upload, the stick and the share) is one run */
	rep->runs = m->saved.runs + !(m->saved.seen && !strcmp(m->saved.run, rep->run));
	if (rep->clock_unset && !m->clock_unset_run[0])
		copy_text(m->clock_unset_run, sizeof(m->clock_unset_run), rep->run);
	if (!rep->heartbeat)
		note_kind(m, rep);
	note_span(m, rep);
	note_bad_arrival(m, rep);
	if (m->saved.seen && !m->saved.heartbeat && !rep->heartbeat && !strcmp(m->saved.run, rep->run)) {
		/* two copies of one run (the stick's, the share's): they must say the same */
		if (m->saved.unreadable != rep->unreadable || m->saved.failed != rep->failed) {
			char shown[200];

			copy_text(shown, sizeof(shown), rep->where);
			m->saved.unreadable = 1;
			snprintf(m->saved.failures, sizeof(m->saved.failures),
				 "two copies of this run say different things (the other: %.150s)", shown);
			m->saved.failed = -1;
		}
		/* it arrived when its first copy did: a copy made later is not a newer run */
		if (rep->shared_at && (!m->saved.shared_at || rep->shared_at < m->saved.shared_at))
			m->saved.shared_at = rep->shared_at;
		m->saved.runs = rep->runs;
		return;
	}
	{
		int tie = m->saved.seen && !m->saved.heartbeat &&
			  same_second(rep, m->saved.run, m->saved.started, m->saved.ended) &&
			  verdict_of(rep) != verdict_of(&m->saved);
		char other[128];

		copy_text(other, sizeof(other), supersedes(rep, &m->saved) ? m->saved.run : rep->run);
		if (!m->saved.seen || supersedes(rep, &m->saved))
			m->saved = *rep;
		else
			m->saved.runs = rep->runs;
		if (tie) {
			/* never the random run id's coin flip between a pass and a failure */
			m->saved.unreadable = 1;
			snprintf(m->saved.failures, sizeof(m->saved.failures), "%.120s began and ended in the same second as "
				 "this run, one passed and one not: which is newer cannot be told", other);
		}
	}
}

/* The runs --since left out that did not pass, weighed by their arrival on the share (add_saved). */
static void add_late(struct rack *r)
{
	for (unsigned i = 0; i < r->nlate; i++) {
		long k = machine_known(r, &r->late[i]);

		if (k >= 0)
			note_bad_arrival(&r->m[k], &r->late[i]);
	}
	free(r->late);
	r->late = NULL;
	r->nlate = 0;
}

/* Who the run is, from its inventory.json: the machine's name, its serial, its NICs' MACs. */
static void read_inventory(struct rack_report *rep, json_t *inv)
{
	json_t *nics = json_object_get(inv, "nics"), *nic;
	char buf[256];
	size_t i;

	if (!json_is_object(inv))
		return;
	copy_text(rep->machine, sizeof(rep->machine), rs_str(inv, "machine", buf, sizeof(buf)));
	copy_text(rep->serial, sizeof(rep->serial), rs_str(inv, "system.serial", buf, sizeof(buf)));
	json_array_foreach(nics, i, nic)
		if (rep->nmacs < ARRAY_SIZE(rep->macs) && !mac_normal(rs_str(nic, "mac", buf, sizeof(buf)),
								       rep->macs[rep->nmacs]))
			rep->nmacs++;
}

/*
 * The first pass over the share: each row listed by a MAC learns the
 * serial of the machine whose inventory has it, before any run is placed
 * (a run saved without an inventory, met first, would otherwise stand
 * apart under the serial as an unlisted machine).
 */
static void learn_from_inventory(struct rack *r, const char *dir)
{
	struct rack_report rep = { 0 };
	char path[640], own[128];
	json_t *inv;
	long row;

	snprintf(path, sizeof(path), "%s/inventory.json", dir);
	inv = rs_read_json(path);
	read_inventory(&rep, inv);
	json_decref(inv);
	if (rep.nmacs && (row = row_of_macs(r, &rep)) >= 0 && !own_key(&rep, own, sizeof(own)))
		learn_alias(r, row, own);
}

/*
 * A copy cut short (an rsync stopped, or still going: files land in name
 * order): a file the run's MANIFEST.sha256 lists is not in DIR. Only
 * looked for (an lstat a name), never checksummed: a rack of 10,000 runs
 * is read in seconds. A manifest that cannot be read is no copy's proof,
 * and says nothing here; none at all (an older image, a stick) neither.
 */
static void manifest_missing(const char *dir, struct rack_report *rep)
{
	char path[640], small[16384], *buf = small, *line, *next;
	struct stat st;
	ssize_t n = -1;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/" MANIFEST_NAME, dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	/* a line a file: a few KiB for most runs, read whole (a line cut would name a file not there) */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size <= RS_FILE_MAX) {
		if ((size_t)st.st_size >= sizeof(small))
			buf = xcalloc(1, (size_t)st.st_size + 1);
		while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
			got += (size_t)n;
	}
	close(fd);
	if (!got || n < 0) {
		if (buf != small)
			free(buf);
		return;
	}
	buf[got] = 0;
	/* sha256sum ends every line: one without its end (a manifest being written) names nothing yet */
	if (strrchr(buf, '\n'))
		strrchr(buf, '\n')[1] = 0;
	else
		buf[0] = 0;
	for (line = buf; line && *line; line = next) {
		/* sha256sum's line: 64 hex digits, a blank, a blank or *, the name (\-escaped when it began with \) */
		char name[256], shown[80];
		size_t k = 0;
		const char *c;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		c = line + (*line == '\\');
		if (strlen(c) < 67 || strspn(c, "0123456789abcdef") != 64 || c[64] != ' ')
			continue;
		for (c += 66; *c && k + 1 < sizeof(name); c++)
			name[k++] = *line == '\\' && *c == '\\' && c[1] == 'n' ? (c++, '\n') :
				    *line == '\\' && *c == '\\' && c[1] == '\\' ? *++c : *c;
		name[k] = 0;
		/* the folder's own files only: a name with a / leads elsewhere */
		if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (lstat(path, &st) && errno == ENOENT) {
			char why[160];

			copy_text(shown, sizeof(shown), name);
			snprintf(why, sizeof(why), "incomplete copy: %s missing (" MANIFEST_NAME " lists it)", shown);
			unreadable(rep, why);
			break;
		}
	}
	if (buf != small)
		free(buf);
}

static void read_folder(struct rack *r, const char *dir, const char *cannot)
{
	struct rack_report rep = { .seen = 1, .failed = -1 };
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	json_t *inv = NULL, *status = NULL, *burnin = NULL;

	copy_text(rep.where, sizeof(rep.where), dir);
	copy_text(rep.run, sizeof(rep.run), name);
	rep.started = folder_time(name);
	if (cannot) {
		char why[200];

		copy_text(why, sizeof(why), cannot);
		snprintf(rep.failures, sizeof(rep.failures), "the folder cannot be read: %s", why);
		rep.unreadable = 1;
	} else {
		struct stat st = { 0 };
		char path[640];

		/* when it arrived, by the share's clock: its verdict's file, written last but the manifest */
		snprintf(path, sizeof(path), "%s/status.json", dir);
		if (lstat(path, &st)) {
			snprintf(path, sizeof(path), "%s/burnin.json", dir);
			if (lstat(path, &st))
				lstat(dir, &st);
		}
		rep.shared_at = st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
		inv = folder_json(dir, "inventory.json", &rep);
		status = folder_json(dir, "status.json", &rep);
		burnin = folder_json(dir, "burnin.json", &rep);
	}
	read_inventory(&rep, inv);
	if (!rep.machine[0])
		machine_of_name(&rep, name);	/* no inventory: the folder's name says whose it is */
	if (status)
		read_status(&rep, status, name);
	if (burnin)
		read_burnin(&rep, burnin, status != NULL);
	if (!status && !burnin && !rep.unreadable) {
		int rc = logged_exit_status(dir);

		if (rc > 0) {
			rep.failed = 1;
			snprintf(rep.failures, sizeof(rep.failures), "exit status %d (console.log)", rc);
		} else if (rc < 0) {
			unreadable(&rep, "no status.json, burnin.json or exit status in console.log: no verdict");
		}
	}
	/* a copy cut short is no result, whatever the files that arrived say (what is wrong with them first) */
	if (!cannot)
		manifest_missing(dir, &rep);
	/*
	 * A pass is the run's own word, status.json (written last): a burn-in's
	 * PASS or a console log's "exit status 0" without it is a part of the
	 * run, the rest unknown (a copy cut short, a run stopped before it
	 * ended, an older image's). A failure they show stands.
	 */
	if (!status && !rep.unreadable && rep.failed != 1)
		unreadable(&rep, burnin ? "no status.json: burnin.json says PASS, but the run's own verdict is missing" :
					  "no status.json: console.log says exit status 0, but the run's own verdict is "
					  "missing");
	rep.when = rep.ended ? rep.ended : rep.started;
	json_decref(inv);
	json_decref(status);
	json_decref(burnin);
	add_saved(r, &rep);
}

/* A run going: its heartbeat file on the share, stamped by the share's clock (its mtime), named for its folder. */
static void read_heartbeat(struct rack *r, const char *file)
{
	struct rack_report rep = { .seen = 1, .failed = -1, .heartbeat = 1 };
	const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	struct stat st;
	json_t *j;

	if (lstat(file, &st) || !S_ISREG(st.st_mode))
		return;
	snprintf(rep.run, sizeof(rep.run), "%.*s", (int)(strlen(name) - strlen(HEARTBEAT_SUFFIX)), name);
	copy_text(rep.run, sizeof(rep.run), rep.run);
	copy_text(rep.where, sizeof(rep.where), file);
	rep.started = folder_time(rep.run);
	rep.when = st.st_mtime;
	rep.shared_at = st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
	machine_of_name(&rep, rep.run);
	/* what it says of itself is a line for people; when it beat is the share's to say */
	j = st.st_size < 65536 ? json_load_file(file, 0, NULL) : NULL;
	if (json_is_object(j)) {
		json_t *mac;
		char buf[256];
		size_t i;

		copy_text(rep.what, sizeof(rep.what), rs_str(j, "what", buf, sizeof(buf)));
		/* its MACs: a machine the list names by one is found by them (none trusted but as MACs) */
		json_array_foreach(json_object_get(j, "macs"), i, mac)
			if (rep.nmacs < ARRAY_SIZE(rep.macs) && json_is_string(mac) &&
			    !mac_normal(json_string_value(mac), rep.macs[rep.nmacs]))
				rep.nmacs++;
	}
	json_decref(j);
	add_saved(r, &rep);
}

int rack_read_saved(struct rack *r, const char *path, FILE *errs)
{
	struct found fs = { .errs = errs, .bad = &r->bad };
	unsigned i, n;

	r->errs = errs;
	static const char *const read_ahead[] = { "status.json", "burnin.json", "inventory.json", MANIFEST_NAME, NULL };

	if (rs_walk_share(path, note_file, note_unreadable, read_ahead, run_files, &fs)) {
		free(fs.dir);
		return -1;
	}
	if (fs.ndir)
		qsort(fs.dir, fs.ndir, sizeof(*fs.dir), by_string);
	for (i = 0, n = 0; i < fs.ndir; i++)
		if (!n || strcmp(fs.dir[i], fs.dir[n - 1]))
			fs.dir[n++] = fs.dir[i];
		else
			free(fs.dir[i]);
	for (i = 0; i < n && r->listed; i++)
		learn_from_inventory(r, fs.dir[i]);
	for (i = 0; i < n; i++) {
		read_folder(r, fs.dir[i], NULL);
		free(fs.dir[i]);
	}
	/* a folder that cannot be read, named as a run is: that machine's run is unreadable */
	for (i = 0; i < fs.ncannot; i++) {
		const char *name = strrchr(fs.cannot[i], '/') ? strrchr(fs.cannot[i], '/') + 1 : fs.cannot[i];

		if (folder_time(name))
			read_folder(r, fs.cannot[i], fs.cannot_why[i]);
		free(fs.cannot[i]);
		free(fs.cannot_why[i]);
	}
	for (i = 0; i < fs.nbeat; i++) {
		read_heartbeat(r, fs.beat[i]);
		free(fs.beat[i]);
	}
	add_late(r);
	free(fs.dir);
	free(fs.cannot);
	free(fs.cannot_why);
	free(fs.beat);
	return 0;
}

/* ---- Prometheus ---- */

/*
 * The groups a newer run of their machine superseded are left out of
 * every query: the gateway keeps a killed run's "running" and a finished
 * run's last figures for ever. Superseded: the group's last push reached
 * the gateway more than 5 s before another group's run started, by the
 * gateway's clock (push_time_seconds), never the machine's: an RTC hours
 * ahead would date a run after every later one, and its pass hide their
 * FAIL. A run's start by the gateway's clock is its group's last arrival
 * less how long it had gone by then (two readings of the machine's clock,
 * whose difference is right however far off it is), never after that
 * arrival. The same rule as tools/monitoring's bootbench:run_superseded,
 * written out: fleet needs no rules loaded.
 */
#define GROUP_ARRIVED "max by (job, machine, disk) (push_time_seconds{job=\"bootbench\"})"
#define CURRENT " unless on (job, machine, disk) (group by (job, machine, disk) (" GROUP_ARRIVED " + 5 " \
		"< on (job, machine) group_left max by (job, machine) (" GROUP_ARRIVED " - on (job, machine, disk) " \
		"clamp_min(max by (job, machine, disk) (bootbench_last_push_timestamp_seconds) - on (job, machine, disk) " \
		"max by (job, machine, disk) (bootbench_run_start_timestamp_seconds), 0))))"

/* Text from outside as one line of at most LEN - 1 printable characters. */
static void one_line(char *dst, size_t len, const char *src)
{
	copy_text(dst, len, src ? src : "");
	dst[strcspn(dst, "\n")] = 0;
}

/*
 * The result of an instant QUERY: an array of {metric, value}; NULL with
 * bb_err, one line. The answer is parsed as curl reads it (a pipe, no
 * buffer of a fixed size): a rack of 10,000 machines answers megabytes.
 */
static json_t *prom_query(const char *url, const char *query, json_t **whole)
{
	char api[1200], q[2048], err[512] = "", shown[160];
	char *argv[] = { "curl", "--silent", "--show-error", "--connect-timeout", "5", "--max-time", "60",
			 "--get", "--data-urlencode", q, api, NULL };
	int out[2], errp[2], status = 0;
	json_error_t e;
	json_t *j, *res;
	ssize_t n;
	pid_t pid;

	snprintf(api, sizeof(api), "%s%sapi/v1/query", url, url[strlen(url) - 1] == '/' ? "" : "/");
	snprintf(q, sizeof(q), "query=%s", query);
	snprintf(shown, sizeof(shown), "%.60s%s", query, strlen(query) > 60 ? "..." : "");
	if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		set_err("Prometheus at %s: %s", url, strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		set_err("Prometheus at %s: %s", url, strerror(errno));
		close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
		return NULL;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		execvp(argv[0], argv);	/* consent: curl reads Prometheus' API, writes nothing */
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	j = json_loadfd(out[0], JSON_DISABLE_EOF_CHECK, &e);
	/* a reader gone ends curl (SIGPIPE) if the parse stopped early */
	close(out[0]);
	n = read(errp[0], err, sizeof(err) - 1);
	err[n > 0 ? n : 0] = 0;
	close(errp[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	res = json_object_get(json_object_get(j, "data"), "result");
	if (json_is_object(j) && !strcmp(json_string_value(json_object_get(j, "status")) ?: "", "success") &&
	    json_is_array(res)) {
		*whole = j;
		return res;
	}
	if (json_is_object(j) && json_string_value(json_object_get(j, "error"))) {
		/* Prometheus' own word: a query it cannot run, a timeout, too many samples */
		one_line(err, sizeof(err), json_string_value(json_object_get(j, "error")));
		set_err("Prometheus at %s: it refused %s: %.300s", url, shown, err);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		set_err("Prometheus at %s: curl is not installed", url);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		one_line(err, sizeof(err), err[0] ? err : "curl failed");
		set_err("Prometheus at %s: %.300s", url, err);
	} else {
		one_line(err, sizeof(err), e.text);
		set_err("Prometheus at %s: not an answer of its HTTP API to %s (%.200s)", url, shown, err);
	}
	json_decref(j);
	return NULL;
}

/* The live report of the machine a series is labelled with (NULL for one with no machine label). */
static struct rack_report *live_of(struct rack *r, json_t *series)
{
	struct rack_report rep = { .seen = 1, .failed = 0 };
	const char *name = json_string_value(json_object_get(json_object_get(series, "metric"), "machine"));
	struct rack_machine *m;

	if (!name || !*name)
		return NULL;
	copy_text(rep.machine, sizeof(rep.machine), name);
	m = machine_of(r, &rep);
	if (!m->live.seen)
		m->live = rep;
	return &m->live;
}

static double value_of(json_t *series)
{
	const char *v = json_string_value(json_array_get(json_object_get(series, "value"), 1));

	return v ? strtod(v, NULL) : 0;
}

static const char *label(json_t *series, const char *name, char *buf, size_t len)
{
	copy_text(buf, len, json_string_value(json_object_get(json_object_get(series, "metric"), name)) ?: "");
	return buf;
}

/*
 * What Prometheus has of each machine, aggregated per machine in PromQL:
 * a rack of 10,000 machines of 24 disks answers 10,000 series a query,
 * not 240,000 (only failures are per disk or component). The last push is
 * the gateway's push_time_seconds, when it arrived: the machine's clock,
 * which nothing sets, judges nothing here.
 */
enum live_query { LIVE_PUSHED, LIVE_RUN, LIVE_PASSED, LIVE_ERASE_FAILED, LIVE_RUNNING, LIVE_FAILED_DISKS, LIVE_BURNIN_RUNNING, LIVE_BURNIN_FAILED,
		  LIVE_PROGRESS, LIVE_LEFT, LIVE_BURNIN_LEFT, LIVE_ERASE_LEFT };

static const char *const live_queries[] = {
	[LIVE_PUSHED] = "max by (machine) (push_time_seconds{job=\"bootbench\"}" CURRENT ")",
	/* the run pushing (its identity, the result folder's name): the share's result of the same run wins */
	[LIVE_RUN] = "max by (machine, run) (bootbench_run_start_timestamp_seconds" CURRENT ")",
	/* what says it passed: a disk's run, a burn-in component, an erase proven */
	[LIVE_PASSED] = "count by (machine) ((bootbench_state{state=\"pass\"} == 1 or bootbench_burnin_verdict == 1 or "
			"bootbench_erase_erased == 1)" CURRENT ")",
	[LIVE_ERASE_FAILED] = "group by (machine, disk) (bootbench_erase_erased == 0" CURRENT ")",
	/*
	 * A run going: a disk's run, or an erase (its running gauge; an older
	 * image's erase pushes only its phase, "done" at its end): never an
	 * erase half done taken for the pass of its disks done.
	 */
	[LIVE_RUNNING] = "count by (machine) ((bootbench_state{state=\"running\"} == 1 or bootbench_erase_running == 1 or "
			 "bootbench_erase_progress_ratio{phase!=\"done\"})" CURRENT ")",
	[LIVE_FAILED_DISKS] = "group by (machine, disk, state) (bootbench_state{state!~\"running|pass\"} == 1" CURRENT ")",
	[LIVE_BURNIN_RUNNING] = "group by (machine, component) (bootbench_burnin_running == 1" CURRENT ")",
	[LIVE_BURNIN_FAILED] = "min by (machine, component) (bootbench_burnin_verdict <= 0" CURRENT ")",
	[LIVE_PROGRESS] = "min by (machine) (bootbench_progress_ratio and on (job, machine, disk) "
			  "(bootbench_state{state=\"running\"} == 1" CURRENT "))",
	[LIVE_LEFT] = "max by (machine) (bootbench_time_left_seconds and on (job, machine, disk) "
		      "(bootbench_state{state=\"running\"} == 1" CURRENT "))",
	[LIVE_BURNIN_LEFT] = "max by (machine) (bootbench_burnin_time_left_seconds and on (job, machine) "
			     "(max by (job, machine) (bootbench_burnin_running) == 1)" CURRENT ")",
	[LIVE_ERASE_LEFT] = "max by (machine) (bootbench_erase_time_left_seconds and on (job, machine, disk) "
			    "(bootbench_erase_progress_ratio{phase!=\"done\"})" CURRENT ")",
};

int rack_read_live(struct rack *r, const char *url)
{
	for (size_t q = 0; q < ARRAY_SIZE(live_queries); q++) {
		json_t *whole, *res = prom_query(url, live_queries[q], &whole), *s;
		size_t i;

		if (!res)
			return -1;
		json_array_foreach(res, i, s) {
			struct rack_report *l = live_of(r, s);
			char a[64], b[64], item[160];
			double v = value_of(s);

			if (!l)
				continue;
			switch ((enum live_query)q) {
			case LIVE_PUSHED:
				if ((time_t)v > l->when)
					l->when = (time_t)v;
				break;
			case LIVE_RUN:
				label(s, "run", a, sizeof(a));
				/* two runs current at once (a clock that went back): neither is taken as the run */
				if (l->run[0] && strcmp(l->run, a))
					l->unreadable = 1;
				copy_text(l->run, sizeof(l->run), a);
				l->started = (time_t)v;
				break;
			case LIVE_PASSED:
				l->passed = 1;
				break;
			case LIVE_ERASE_FAILED:
				l->failed = 1;
				label(s, "disk", b, sizeof(b));
				snprintf(item, sizeof(item), "disk %s not erased", b);
				append(l->failures, sizeof(l->failures), item);
				break;
			case LIVE_RUNNING:
				l->running = 1;
				break;
			case LIVE_FAILED_DISKS:
				label(s, "state", a, sizeof(a));
				label(s, "disk", b, sizeof(b));
				l->failed = 1;
				snprintf(item, sizeof(item), "disk %s %s", b, !strcmp(a, "fail") ? "FAIL" : a);
				append(l->failures, sizeof(l->failures), item);
				break;
			case LIVE_BURNIN_RUNNING:
				l->running = 1;
				label(s, "component", a, sizeof(a));
				snprintf(item, sizeof(item), "burn-in: %s", a);
				append(l->what, sizeof(l->what), item);
				break;
			case LIVE_BURNIN_FAILED:
				l->failed = 1;
				label(s, "component", a, sizeof(a));
				snprintf(item, sizeof(item), "%s %s", a, v < 0 ? "ERROR" : "FAIL");
				append(l->failures, sizeof(l->failures), item);
				break;
			case LIVE_PROGRESS:
				snprintf(item, sizeof(item), "%.0f%% done", v * 100);
				append(l->what, sizeof(l->what), item);
				break;
			case LIVE_LEFT:
			case LIVE_BURNIN_LEFT:
			case LIVE_ERASE_LEFT:
				snprintf(item, sizeof(item), "%sabout %.0f min left", q == LIVE_ERASE_LEFT ? "erase: " : "",
					 v / 60 < 1 && v > 0 ? 1 : v / 60);
				append(l->what, sizeof(l->what), item);
				break;
			}
		}
		json_decref(whole);
	}
	return 0;
}

/* ---- states ---- */

static const char *utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	return buf;
}

void rack_judge(struct rack *r, time_t now, unsigned silent_after)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct rack_machine *m = &r->m[i];
		struct rack_report *s = &m->saved;
		const struct rack_report *l = &m->live;
		/* the share's result, when it has one, wins: Prometheus only for a run after it (or none saved) */
		time_t saved_end = s->ended ? s->ended : s->started;
		/*
		 * The same run on both: the share's (its end) wins. Another run: the
		 * newer, by the one machine's clock (its run identity says when it
		 * began) or by arrival: pushes the gateway took (its clock) after
		 * the saved run reached the share (the share's) are a newer run's,
		 * whatever a clock reset to 2000 named it. Pushes without an
		 * identity, or a folder not named as a run's (renamed by hand): the
		 * last push after the saved run's end.
		 */
		int pushed_after = s->shared_at && l->when > s->shared_at + SAME_RUN_S;
		int live_wins = l->seen && (!s->seen || (s->heartbeat ? l->when >= s->when :
					     l->run[0] && s->started ? strcmp(l->run, s->run) &&
								       (l->started > s->started || pushed_after) :
					     l->run[0] && l->started && saved_end ? l->started > saved_end || pushed_after :
					     l->when > saved_end + SAME_RUN_S && (l->running || s->ended)));
		/*
		 * The run's heartbeat on the share, its result not: the run has not
		 * delivered (its save failed, the machine died saving). Its pushes
		 * ended, passing or not, are not its end: the heartbeat says
		 * running, then silent. A FAIL pushed is final all the same.
		 */
		int beat_governs = s->seen && s->heartbeat && l->seen && !l->running && !l->failed &&
				   (!l->run[0] || !strcmp(l->run, s->run));
		/*
		 * Arrival alone says the pushes are newer, the machine's clock says
		 * they began before the saved run: a clock reset names a rerun in
		 * 2000, but a stick copied with its mtimes (rsync -a) dates a share's
		 * result by the machine's clock too. Which is newer cannot be told,
		 * and a pass never comes of it: a push's pass over a result that did
		 * not pass is unreadable.
		 */
		int by_arrival_only = s->seen && !s->heartbeat && pushed_after && l->started &&
				      s->started && l->started <= s->started;
		char t[40], more[64] = "";
		const struct rack_kind *k;

		if (beat_governs)
			live_wins = 0;

		/*
		 * --since over what Prometheus has: a run begun before it (or last
		 * heard of before it) is not this campaign's; but one the gateway
		 * took after the saved run reached the share is newer than that,
		 * whatever its clock (reset to 2000) says it began.
		 */
		if (live_wins && r->since && ((l->started && l->started < r->since && !pushed_after) || l->when < r->since))
			live_wins = 0;

		if (m->line && !m->serial[0] && !m->mac[0]) {
			m->state = RACK_EMPTY;
			snprintf(m->detail, sizeof(m->detail), "an empty position: no machine listed");
			continue;
		}
		if (m->two_boards[0]) {
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "its runs %s ran at the same time on boards with no NIC in "
				 "common: two machines report this serial (a cloned FRU?), which stands here cannot be told",
				 m->two_boards);
			continue;
		}
		if (m->claimed_too[0]) {
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "its MAC %s is in what two machines reported (%.100s and "
				 "%.100s): which stands here cannot be told", m->mac, m->alias_key, m->claimed_too);
			continue;
		}
		if (live_wins && by_arrival_only && !l->failed && !l->running && (s->unreadable || s->failed != 0)) {
			char shown[80];

			copy_text(shown, sizeof(shown), l->run);
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "Prometheus' pushes of %s (passed) reached the gateway after "
				 "%.128s (not passed) reached the share, but began before it by the machine's clock: which "
				 "is newer cannot be told, saved in %.300s", shown, s->run, s->where);
			continue;
		}
		/* one run, two words: its pushes said FAIL, the share's copy says it passed (a copy not of its end) */
		if (!live_wins && s->seen && !s->heartbeat && l->seen && l->run[0] && !strcmp(l->run, s->run) &&
		    l->failed && !s->unreadable && s->failed == 0) {
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "its run %.128s passed on the share, but its pushes to "
				 "Prometheus said %.200s: they contradict each other, saved in %.300s", s->run, l->failures,
				 s->where);
			continue;
		}
		if (live_wins && l->unreadable) {
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "Prometheus has two runs of it current at once (its "
				 "clock went back?): which is newest cannot be told");
			continue;
		}
		if (live_wins || (s->seen && s->heartbeat)) {
			const struct rack_report *g = live_wins ? l : s;
			const char *from = live_wins ? "push" : "heartbeat on the share";
			long ago = (long)(now - g->when);

			if (live_wins && l->failed && l->running) {
				/* a FAIL pushed while the run goes on is its verdict already: never waited on, nor merely silent */
				m->state = RACK_FAILED;
				if (ago > (long)silent_after)
					snprintf(m->detail, sizeof(m->detail), "%s; pushed while its run went on (a FAIL is "
						 "final); silent since %s (%ld %s)%s%s", l->failures, utc(g->when, t, sizeof(t)),
						 ago < 120 ? ago : ago / 60, ago < 120 ? "s" : "min",
						 g->what[0] ? "; it was at " : "", g->what);
				else
					snprintf(m->detail, sizeof(m->detail), "%s; pushed while its run went on (a FAIL is "
						 "final); %s%slast push %ld s ago", l->failures, g->what, g->what[0] ? "; " : "",
						 ago < 0 ? 0 : ago);
			} else if (!live_wins || l->running) {
				if (ago > (long)silent_after) {
					m->state = RACK_SILENT;
					snprintf(m->detail, sizeof(m->detail), "silent since %s (%ld %s)%s%s%s",
						 utc(g->when, t, sizeof(t)), ago < 120 ? ago : ago / 60, ago < 120 ? "s" : "min",
						 live_wins ? "" : ", its last heartbeat on the share",
						 g->what[0] ? "; it was at " : "", g->what);
				} else {
					m->state = RACK_RUNNING;
					snprintf(m->detail, sizeof(m->detail), "%s%slast %s %ld s ago", g->what,
						 g->what[0] ? "; " : "", from, ago < 0 ? 0 : ago);
				}
			} else if (!l->failed && !l->passed) {
				/* pushes, none running, none failed, none passed: no verdict (an erase's, a gap between runs) */
				m->state = RACK_UNREADABLE;
				snprintf(m->detail, sizeof(m->detail), "Prometheus has its pushes (the last %s) but no verdict: "
					 "nothing running, failed or passed", utc(l->when, t, sizeof(t)));
			} else if (!l->failed && (k = kind_not_passed(m, NULL))) {
				/*
				 * A pushed pass of a run whose kind the pushes do not say (an
				 * erase, a rerun of the burn-in) over a saved run that did not
				 * pass: that verdict stands until the new run's result is saved.
				 */
				m->state = k->failed > 0 ? RACK_FAILED : RACK_UNREADABLE;
				snprintf(m->detail, sizeof(m->detail), "%s%sits newest %s run on the share %s, saved in %.300s; "
					 "a newer run passed (Prometheus, %s; its result not on the share yet)", k->failures,
					 k->failures[0] ? "; " : "", k->kind[0] ? k->kind : "(unnamed)",
					 k->failed > 0 ? "failed" : "has no verdict", k->where, utc(l->when, t, sizeof(t)));
			} else {
				m->state = l->failed ? RACK_FAILED : RACK_PASSED;
				snprintf(m->detail, sizeof(m->detail), "%s%sended %s (Prometheus; no results on the share yet)",
					 l->failures, l->failures[0] ? "; " : "", utc(l->when, t, sizeof(t)));
			}
			continue;
		}
		if (!s->seen) {
			m->state = RACK_NEVER_SEEN;
			snprintf(m->detail, sizeof(m->detail), "no results, no pushes%s",
				 r->before_since ? " (since the campaign began)" : "");
			continue;
		}
		if (s->runs > 1)
			snprintf(more, sizeof(more), " (the newest of %u runs)", s->runs);
		/*
		 * The newest run by its name's time (the machine's clock) passed: the
		 * good word only when the share's clock agrees, none that did not pass
		 * arriving after it, and the name not in the future.
		 */
		if (m->clock_unset_run[0] && s->runs > 1) {
			/* a run whose clock was not set beside another: neither its name nor its files' times order them */
			char shown[80];

			copy_text(shown, sizeof(shown), m->clock_unset_run);
			unreadable(s, "");
			snprintf(s->failures, sizeof(s->failures), "%s ran with its clock not set (status.json): which of "
				 "its %u runs is newest cannot be told (leave the others out: --since, or move them)",
				 shown, s->runs);
		} else if (!s->unreadable && s->failed == 0 && s->shared_at && m->bad_arrived_at > s->shared_at + SAME_RUN_S &&
		    strcmp(m->bad_arrived_run, s->run)) {
			char shown[80];

			copy_text(shown, sizeof(shown), m->bad_arrived_run);
			unreadable(s, "");
			snprintf(s->failures, sizeof(s->failures), "newest by its name, but %s (not passed) reached the "
				 "share later: which ran last cannot be told (the machine's clock?)", shown);
		} else if (!s->unreadable && s->failed == 0 &&
			   ((s->started && s->started > now + FUTURE_S) || (s->ended && s->ended > now + FUTURE_S))) {
			unreadable(s, "");
			snprintf(s->failures, sizeof(s->failures),
				 "dated %s, in the future: the machine's clock was wrong, and which of its runs is newest "
				 "cannot be told", utc(s->ended > s->started ? s->ended : s->started, t, sizeof(t)));
		}
		if (s->unreadable || s->failed < 0) {
			m->state = RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "%s, saved in %.300s%s",
				 s->failures[0] ? s->failures : "no verdict", s->where, more);
			continue;
		}
		/* when it ended, from status.json; an older image's run says only when it started */
		utc(s->ended ? s->ended : s->started, t, sizeof(t));
		if (!s->failed && !s->heartbeat && (k = kind_not_passed(m, s->what))) {
			/* an erase or a quick run after a failed burn-in: the burn-in's verdict stands */
			m->state = k->failed > 0 ? RACK_FAILED : RACK_UNREADABLE;
			snprintf(m->detail, sizeof(m->detail), "%s%sits newest %s run %s, saved in %.300s; its newer %s "
				 "run passed%s", k->failures, k->failures[0] ? "; " : "", k->kind[0] ? k->kind : "(unnamed)",
				 k->failed > 0 ? "failed" : "has no verdict", k->where, s->what[0] ? s->what : "(unnamed)",
				 more);
			continue;
		}
		m->state = s->failed ? RACK_FAILED : RACK_PASSED;
		snprintf(m->detail, sizeof(m->detail), "%s%s%s%s%s, saved in %.300s%s", s->failures,
			 s->failures[0] ? "; " : "", s->what[0] ? s->what : "a run",
			 s->ended ? " ended " : s->started ? " started " : "", s->ended || s->started ? t : "", s->where,
			 more);
	}
}

void rack_free(struct rack *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		free(r->m[i].kinds);
		free(r->m[i].spans);
	}
	free(r->m);
	free(r->late);
	free(r->hash);
	memset(r, 0, sizeof(*r));
}
