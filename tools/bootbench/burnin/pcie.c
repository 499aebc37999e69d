// SPDX-License-Identifier: MIT
/*
 * pcie.c - the pcie component: PCIe's health under the burn-in's load,
 * watched from its start to its end (weight 0, as bmc.c: begin() runs
 * before the components that load the machine, run() after them; what
 * begin() read is kept here for run(), so both run in one process).
 *
 * Errors: Linux's AER counters of each device (aer_dev_correctable,
 * aer_dev_fatal, aer_dev_nonfatal: the errors the device reported) and of
 * each root port (aer_rootport_total_err_*: the error messages it
 * received, its own and those from below it), read at the start and at the
 * end. An uncorrectable error (fatal or not) logged meanwhile FAILs naming
 * the device, its slot and the counter; corrected ones FAIL over
 * pcie_ce_max on one device, else are a figure. A message a root port
 * received that no device below it counted (Linux did not find its source)
 * is the root port's. Counters that went back mean the device was removed
 * and found again (its link went down and came back): a FAIL; a device
 * gone at the end FAILs. Where the firmware keeps AER (firmware first: no
 * port bound to Linux's aer service) the counters grow only by what it
 * reports to Linux; the notes and the PASS say so.
 *
 * Links: a link is judged once, at its downstream end (the device below a
 * root port or a switch's downstream port; its first function), against
 * what both its ends can: the lower of the device's maximum and its
 * port's (a Gen4 card in a Gen3 slot is not at fault). It is read at the
 * start, every 5 s during the load (BOOTBENCH_SCALE times that; a thread:
 * a link that drops to x8 under load and comes back is seen) and at the
 * end. A link below what both ends can FAILs; one whose speed or width
 * changed meanwhile FAILs as retrained during the load, and so does one
 * whose device was gone from sysfs for a reading, or did not answer while
 * in D0. pcie.txt in the run's folder holds every device's readings and
 * counters at both ends (the reason holds as many failures as fit). ASPM's L0s and L1 do not change the speed or
 * width a link reports (the Link Status register keeps what the link
 * trained at through them), so a link read idle is judged as any other.
 * What is not judged, and said in the notes:
 *  - a display controller's speed: GPU drivers (NVIDIA's, amdgpu) lower
 *    the link's speed while the GPU idles and raise it under load, and no
 *    component loads the GPU; its width is judged, but under amdgpu, whose
 *    power management narrows the link too (pp_dpm_pcie's levels);
 *  - a device Linux put in a low-power state (D3hot, D3cold, runtime
 *    suspended): its link is parked or off, not trained below.
 *
 * What could not be read is never a PASS: counters that do not read are an
 * ERROR; no device with AER counters is an ERROR unless pcie_need_aer=0
 * (the links alone then decide, said in the notes); nothing to watch at
 * all (no PCIe) is an ERROR whatever the limits.
 *
 * BOOTBENCH_BURNIN_HOLD=pcie: run() waits before its reading until
 * SIGCONT, the sampling thread still reading: a test changes a recorded
 * tree (BOOTBENCH_SYSROOT) there, as the load would.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burnin/burnin.h"
#include "lib/util.h"
#include "sys/pci.h"
#include "sys/root.h"

struct pdev {
	char addr[16];
	char parent[16];		/* the port above it, "" on the root bus */
	char path[256];			/* from its host bridge on: who is below whom */
	int depth;			/* below its host bridge: 1 on the root bus */
	int up;				/* the parent's index, -1 */
	unsigned class, vendor, device;
	char driver[32];
	char slot[40];
	int gone;			/* not there at the end */
	/* AER: pci_aer_read's 1, 0 (none) or -1 (does not read), at the start and the end */
	int aer0, aer1;
	char aer_err[160];
	struct pci_aer a0, a1;
	int back;			/* counters went back */
	unsigned long long grew[PCI_AER_NFILES];	/* during the burn-in */
	unsigned long long extra[PCI_AER_NFILES];	/* a root port's messages no device below counted */
	/* the link */
	int has_link;			/* link files: PCIe */
	struct pci_link l0;		/* at the start (its maximum: the port's, for the devices below) */
	int powered0;
	char power0[24];
	int judge;			/* its link is judged here */
	/* the sampler's: readings during the load unlike the start's */
	unsigned changed;		/* another speed or width */
	unsigned gone_for;		/* not there: it fell off the bus (and came back) */
	unsigned mute;			/* in D0, its link does not read: it did not answer */
	unsigned unread;		/* its link does not read, its power state unknown */
	unsigned parked;		/* in a low-power state */
	struct pci_link seen;		/* the first change */
	double seen_s, gone_s, mute_s;	/* when, from the start */
	/* at the end */
	struct pci_link l1;
	char power1[24];
};

/* What the start of the burn-in saw, for the end to compare with. */
static struct {
	int ready;
	struct pdev *d;
	unsigned n;
	uint64_t t0;
	double every;			/* seconds between the sampler's readings */
	pthread_t thread;
	int sampling;
	int stop;			/* __atomic: the sampler ends */
	unsigned samples;
} w;

static const struct {
	unsigned class, bits;		/* BITS: how many of its 24 bits match */
	const char *what;
} kinds[] = {
	{ 0x010802, 24, "NVMe controller" }, { 0x0108, 16, "NVM controller" }, { 0x0104, 16, "RAID controller" },
	{ 0x0106, 16, "SATA controller" }, { 0x0107, 16, "SAS controller" }, { 0x01, 8, "storage controller" },
	{ 0x0200, 16, "Ethernet controller" }, { 0x0207, 16, "InfiniBand controller" },
	{ 0x02, 8, "network controller" }, { 0x0300, 16, "VGA controller" }, { 0x0302, 16, "3D controller" },
	{ 0x03, 8, "display controller" }, { 0x0604, 16, "PCI bridge" }, { 0x0807, 16, "root complex event collector" },
	{ 0x0c03, 16, "USB controller" }, { 0x0b40, 16, "co-processor" }, { 0x12, 8, "processing accelerator" },
};

static const char *kind_of(unsigned class)
{
	for (unsigned i = 0; i < ARRAY_SIZE(kinds); i++)
		if (class >> (24 - kinds[i].bits) == kinds[i].class)
			return kinds[i].what;
	return NULL;
}

static int is_display(const struct pdev *d)
{
	return d->class >> 16 == 0x03;
}

static int is_port(const struct pdev *d)
{
	return d->class >> 8 == 0x0604;
}

/* "0000:3b:00.0 in slot 3 (NVMe controller 144d:a80a)": the address, the
 * slot the firmware names (a port's: the slot below it), what it is */
static const char *name_of(const struct pdev *d, char *buf, size_t len)
{
	const char *kind = kind_of(d->class), *below = NULL;
	char what[48];

	if (kind)
		snprintf(what, sizeof(what), "%s %04x:%04x", kind, d->vendor, d->device);
	else
		snprintf(what, sizeof(what), "class %06x, %04x:%04x", d->class, d->vendor, d->device);
	for (unsigned i = 0; !d->slot[0] && is_port(d) && i < w.n && !below; i++)
		if (w.d[i].slot[0] && !strcmp(w.d[i].parent, d->addr))
			below = w.d[i].slot;
	if (d->slot[0])
		snprintf(buf, len, "%s in slot %s (%s)", d->addr, d->slot, what);
	else if (below)
		snprintf(buf, len, "%s, the port of slot %s (%s)", d->addr, below, what);
	else
		snprintf(buf, len, "%s (%s; in no slot the firmware names)", d->addr, what);
	return buf;
}

static unsigned hex_attr(const char *addr, const char *name)
{
	char path[PATH_MAX], buf[32];

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", addr, name);
	return read_attr(path, buf, sizeof(buf)) ? 0 : (unsigned)strtoul(buf, NULL, 16);
}

/* What a device is and where it sits; its counters and its link as they are now. */
static void read_device(struct pdev *d, const char *addr)
{
	memset(d, 0, sizeof(*d));
	d->up = -1;
	snprintf(d->addr, sizeof(d->addr), "%s", addr);
	d->class = hex_attr(addr, "class");
	d->vendor = hex_attr(addr, "vendor");
	d->device = hex_attr(addr, "device");
	pci_driver_of(addr, d->driver, sizeof(d->driver));
	pci_slot_of(addr, d->slot, sizeof(d->slot));
	pci_place(addr, d->path, sizeof(d->path), d->parent, sizeof(d->parent), &d->depth);
	d->aer0 = pci_aer_read(addr, &d->a0);
	if (d->aer0 < 0)
		snprintf(d->aer_err, sizeof(d->aer_err), "%.159s", bb_err);
	/* the power state first: on newer kernels reading the link wakes the device */
	d->powered0 = pci_powered(addr, d->power0, sizeof(d->power0));
	d->has_link = !pci_link_read(addr, &d->l0);
}

static int differs(const struct pci_link *a, const struct pci_link *b)
{
	return a->width != b->width || a->speed < b->speed - 0.01 || a->speed > b->speed + 0.01;
}

/* "16 GT/s x4" */
static const char *link_text(double speed, unsigned width, char *buf, size_t len)
{
	snprintf(buf, len, "%g GT/s x%u", speed, width);
	return buf;
}

static int present(const char *addr)
{
	char path[PATH_MAX];

	root_path(path, sizeof(path), "/sys/bus/pci/devices/%s", addr);
	return !access(path, F_OK);
}

static void *sampler(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&w.stop, __ATOMIC_ACQUIRE)) {
		uint64_t until = now_ns() + (uint64_t)(w.every * 1e9);

		while (!__atomic_load_n(&w.stop, __ATOMIC_ACQUIRE) && now_ns() < until)
			sleep_ns(until - now_ns() < 50000000 ? until - now_ns() : 50000000);
		if (__atomic_load_n(&w.stop, __ATOMIC_ACQUIRE))
			break;
		for (unsigned i = 0; i < w.n; i++) {
			struct pdev *d = &w.d[i];
			struct pci_link l;
			char state[24];
			int on;

			if (!d->judge || !pci_link_up(&d->l0))
				continue;
			if (!pci_link_read(d->addr, &l) && pci_link_up(&l) && !differs(&l, &d->l0))
				continue;
			/* unlike the start's: a low-power state parks the link, not a fault */
			on = pci_powered(d->addr, state, sizeof(state));
			if (!present(d->addr)) {
				if (!d->gone_for++)
					d->gone_s = (now_ns() - w.t0) / 1e9;
			} else if (!on) {
				d->parked++;
			} else if (!pci_link_up(&l)) {
				if (on < 0)
					d->unread++;
				else if (!d->mute++)
					d->mute_s = (now_ns() - w.t0) / 1e9;
			} else if (!d->changed++) {
				d->seen = l;
				d->seen_s = (now_ns() - w.t0) / 1e9;
			}
		}
		w.samples++;
	}
	return NULL;
}

/* The sampler, its signals blocked: a Ctrl-C goes to the thread that waits on the programs. */
static void start_sampler(struct burnin_result *r)
{
	sigset_t all, old;
	double scale = 1;
	int rc;

	if (scale_factor(&scale))
		scale = 1;
	w.every = 5 * scale;
	w.every = w.every < 0.05 ? 0.05 : w.every > 5 ? 5 : w.every;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&w.thread, NULL, sampler, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		burnin_note(r, "the links were read at the start and the end only, not during the load (no thread: %s)",
			    strerror(rc));
	else
		w.sampling = 1;
}

void burnin_pcie_begin(const struct burnin_ctx *c, struct burnin_result *r)
{
	char dir[PATH_MAX];
	struct dirent **names;
	unsigned links = 0;
	int n;

	(void)c;
	memset(&w, 0, sizeof(w));
	root_path(dir, sizeof(dir), "/sys/bus/pci/devices");
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		burnin_set(r, BURNIN_ERROR, "the PCI devices could not be listed (/sys/bus/pci/devices: %s)",
			   strerror(errno));
		return;
	}
	w.d = xcalloc(n ? (size_t)n : 1, sizeof(*w.d));
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && strlen(names[i]->d_name) < sizeof(w.d->addr))
			read_device(&w.d[w.n++], names[i]->d_name);
		free(names[i]);
	}
	free(names);
	for (unsigned i = 0; i < w.n; i++) {
		struct pdev *d = &w.d[i];

		for (unsigned k = 0; d->parent[0] && k < w.n && d->up < 0; k++)
			if (!strcmp(w.d[k].addr, d->parent))
				d->up = (int)k;
		/* A link's downstream end is at an even depth below the host
		 * bridge: a root port (1) links to the device below it (2); when
		 * that is a switch's upstream port, its downstream ports (3) are
		 * inside the switch (no link between them) and link to what is
		 * below them (4). The first function of the device below speaks
		 * for the link (the others, VFs among them, repeat it or read 0). */
		d->judge = d->has_link && d->up >= 0 && d->depth >= 2 && d->depth % 2 == 0 && w.d[d->up].has_link;
		for (unsigned k = 0; d->judge && k < i; k++)
			if (w.d[k].judge && !strcmp(w.d[k].parent, d->parent))
				d->judge = 0;
		links += d->judge && pci_link_up(&d->l0);
	}
	w.t0 = now_ns();
	w.ready = 1;
	if (links)
		start_sampler(r);
}

static volatile sig_atomic_t continued;

static void on_cont(int sig)
{
	(void)sig;
	continued = 1;
}

static void hold(void)
{
	const char *h = getenv("BOOTBENCH_BURNIN_HOLD");
	struct sigaction sa = { .sa_handler = on_cont }, old;

	if (!h || strcmp(h, "pcie"))
		return;
	continued = 0;
	sigaction(SIGCONT, &sa, &old);
	fprintf(stderr, "burnin: pcie: held before the end's reading, the links still sampled "
		"(BOOTBENCH_BURNIN_HOLD=pcie); SIGCONT goes on\n");
	while (!continued && !burnin_stop)
		sleep_ns(20000000);
	sigaction(SIGCONT, &old, NULL);
}

/* Devices gone: a FAIL each, those below a device gone counted with it. */
static void judge_gone(struct burnin_result *r)
{
	char name[160], mid[24];

	for (unsigned i = 0; i < w.n; i++)
		w.d[i].gone = !present(w.d[i].addr);
	for (unsigned i = 0; i < w.n; i++) {
		const struct pdev *d = &w.d[i];
		unsigned below = 0;

		if (!d->gone || (d->up >= 0 && w.d[d->up].gone))
			continue;
		snprintf(mid, sizeof(mid), "/%s/", d->addr);
		for (unsigned k = 0; k < w.n; k++)
			below += k != i && w.d[k].gone && strstr(w.d[k].path, mid);
		if (below)
			burnin_set(r, BURNIN_FAIL, "%s was gone at the end of the burn-in, and %u device%s below it: it "
				   "fell off the bus (its link went down) or was removed", name_of(d, name, sizeof(name)),
				   below, below == 1 ? "" : "s");
		else
			burnin_set(r, BURNIN_FAIL, "%s was gone at the end of the burn-in: it fell off the bus (its link "
				   "went down) or was removed", name_of(d, name, sizeof(name)));
	}
}

static void note_appeared(struct burnin_result *r)
{
	char dir[PATH_MAX], name[160];
	struct dirent **names;
	int n;

	root_path(dir, sizeof(dir), "/sys/bus/pci/devices");
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < w.n && strcmp(w.d[k].addr, names[i]->d_name); k++)
			;
		if (k == w.n && names[i]->d_name[0] != '.' && strlen(names[i]->d_name) < sizeof(w.d->addr)) {
			struct pdev *d = xcalloc(1, sizeof(*d));

			read_device(d, names[i]->d_name);
			burnin_note(r, "%s appeared during the burn-in (hot-plugged, or a link that came up late): not judged",
				    name_of(d, name, sizeof(name)));
			free(d);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

/* "aer_dev_fatal: SDES +1, DLP +2": the kinds of FILE that grew from A to B, after what OUT holds */
static void kinds_grown(char *out, size_t len, unsigned file, const struct pci_aer_file *a,
			const struct pci_aer_file *b)
{
	int any = 0;

	for (unsigned k = 0; k < b->nkinds; k++) {
		unsigned long long was = 0;

		for (unsigned j = 0; j < a->nkinds; j++)
			if (!strcmp(a->kind[j], b->kind[k]))
				was = a->count[j];
		if (b->count[k] <= was)
			continue;
		if (!any)
			str_appendf(out, len, "%s%s: ", out[0] ? "; " : "", pci_aer_files[file]);
		str_appendf(out, len, "%s%s +%llu", any ? ", " : "", b->kind[k], b->count[k] - was);
		any = 1;
	}
	if (!any && b->total > a->total)
		str_appendf(out, len, "%s%s: TOTAL +%llu", out[0] ? "; " : "", pci_aer_files[file], b->total - a->total);
}

/* The counters at the end, and what grew: ERRORs for those that do not read, FAILs for counters gone back. */
static void read_counters(struct burnin_result *r)
{
	char name[160];

	for (unsigned i = 0; i < w.n; i++) {
		struct pdev *d = &w.d[i];

		if (d->gone || !d->aer0)
			continue;
		if (d->aer0 < 0) {
			burnin_set(r, BURNIN_ERROR, "the AER counters of %s did not read at the start: %s: its errors "
				   "were not counted", name_of(d, name, sizeof(name)), d->aer_err);
			continue;
		}
		d->aer1 = pci_aer_read(d->addr, &d->a1);
		if (d->aer1 <= 0 && !present(d->addr)) {
			/* gone since judge_gone looked: as it */
			d->gone = 1;
			burnin_set(r, BURNIN_FAIL, "%s was gone at the end of the burn-in: it fell off the bus (its link "
				   "went down) or was removed", name_of(d, name, sizeof(name)));
			continue;
		}
		if (d->aer1 <= 0) {
			burnin_set(r, BURNIN_ERROR, "the AER counters of %s did not read at the end: %s: its errors "
				   "were not counted", name_of(d, name, sizeof(name)),
				   d->aer1 ? bb_err : "they were gone");
			continue;
		}
		for (unsigned f = 0; f < PCI_AER_NFILES; f++)
			d->back |= d->a1.f[f].total < d->a0.f[f].total ||
				   (d->a0.rootport && d->a1.rootport && d->a1.rp[f] < d->a0.rp[f]);
		for (unsigned f = 0; f < PCI_AER_NFILES; f++)
			/* counted again from 0 when it came back: those are a lower bound */
			d->grew[f] = d->back ? d->a1.f[f].total : d->a1.f[f].total - d->a0.f[f].total;
		if (d->back) {
			burnin_set(r, BURNIN_FAIL, "the AER counters of %s went back during the burn-in (corrected %llu "
				   "to %llu, fatal %llu to %llu, nonfatal %llu to %llu): Linux removed it and found it "
				   "again, as when its link goes down and comes back", name_of(d, name, sizeof(name)),
				   d->a0.f[0].total, d->a1.f[0].total, d->a0.f[1].total, d->a1.f[1].total,
				   d->a0.f[2].total, d->a1.f[2].total);
		}
	}
}

/* Whether D is below the root port (or event collector) RP, or is it. */
static int reports_to(const struct pdev *d, const struct pdev *rp)
{
	char mid[24];

	if (d == rp)
		return 1;
	if (rp->class >> 8 == 0x0807)	/* an event collector: the integrated endpoints beside it */
		return d->depth == 1 && !strncmp(d->path, rp->path, strcspn(rp->path, "/") + 1);
	snprintf(mid, sizeof(mid), "/%s/", rp->addr);
	return strstr(d->path, mid) != NULL;
}

/* A root port's messages received that no device below it counted. */
static void root_port_extra(void)
{
	for (unsigned i = 0; i < w.n; i++) {
		struct pdev *rp = &w.d[i];
		int unsure = 0;

		if (rp->gone || rp->aer1 != 1 || rp->back || !rp->a0.rootport || !rp->a1.rootport)
			continue;
		/* a device below whose counters did not read (an ERROR of its own): its
		 * errors are not known, nor what no device counted */
		for (unsigned k = 0; k < w.n; k++)
			unsure |= w.d[k].aer0 && (w.d[k].aer0 < 0 || w.d[k].aer1 != 1) && !w.d[k].gone &&
				  reports_to(&w.d[k], rp);
		for (unsigned f = 0; f < PCI_AER_NFILES && !unsure; f++) {
			unsigned long long got = rp->a1.rp[f] - rp->a0.rp[f], counted = 0;

			for (unsigned k = 0; k < w.n; k++)
				if (w.d[k].aer1 == 1 && reports_to(&w.d[k], rp))
					counted += w.d[k].grew[f];
			rp->extra[f] = got > counted ? got - counted : 0;
		}
	}
}

struct tally {
	unsigned aer, rootports, links, below, retrained, not_judged;
	char idle[640];			/* the display controllers not judged */
	unsigned long long ce, ue, ce_before, ue_before;
	unsigned ce_devices;
};

static void judge_counters(const struct burnin_ctx *c, struct burnin_result *r, struct tally *t)
{
	/* a device found again counts from nothing: its kinds since then */
	static const struct pci_aer_file none;
	char name[160], words[768];

	for (unsigned i = 0; i < w.n; i++) {
		struct pdev *d = &w.d[i];
		unsigned long long ue, ce;

		if (d->aer0 != 1)
			continue;
		t->aer++;
		t->rootports += d->a0.rootport;
		t->ce_before += d->a0.f[PCI_AER_COR].total;
		t->ue_before += d->a0.f[PCI_AER_FATAL].total + d->a0.f[PCI_AER_NONFATAL].total;
		if (d->aer1 != 1)
			continue;
		ue = d->grew[PCI_AER_FATAL] + d->grew[PCI_AER_NONFATAL] + d->extra[PCI_AER_FATAL] +
		     d->extra[PCI_AER_NONFATAL];
		ce = d->grew[PCI_AER_COR] + d->extra[PCI_AER_COR];
		t->ue += ue;
		t->ce += ce;
		if (ue) {
			words[0] = 0;
			kinds_grown(words, sizeof(words), PCI_AER_FATAL, d->back ? &none : &d->a0.f[PCI_AER_FATAL],
				    &d->a1.f[PCI_AER_FATAL]);
			kinds_grown(words, sizeof(words), PCI_AER_NONFATAL, d->back ? &none : &d->a0.f[PCI_AER_NONFATAL],
				    &d->a1.f[PCI_AER_NONFATAL]);
			for (unsigned f = PCI_AER_FATAL; f <= PCI_AER_NONFATAL; f++)
				if (d->extra[f])
					str_appendf(words, sizeof(words), "%s%s +%llu that no device below it counted",
					    words[0] ? "; " : "", pci_aer_rootport_files[f], d->extra[f]);
			burnin_set(r, BURNIN_FAIL, "%s: %llu uncorrectable PCIe error%s during the burn-in (%s)",
				   name_of(d, name, sizeof(name)), ue, ue == 1 ? "" : "s", words);
		}
		if (!ce)
			continue;
		t->ce_devices++;
		words[0] = 0;
		kinds_grown(words, sizeof(words), PCI_AER_COR, d->back ? &none : &d->a0.f[PCI_AER_COR],
			    &d->a1.f[PCI_AER_COR]);
		if (d->extra[PCI_AER_COR])
			str_appendf(words, sizeof(words), "%s%s +%llu that no device below it counted", words[0] ? "; " : "",
			    pci_aer_rootport_files[PCI_AER_COR], d->extra[PCI_AER_COR]);
		if (ce > c->lim->pcie_ce_max)
			burnin_set(r, BURNIN_FAIL, "%s: %llu corrected PCIe errors during the burn-in, over pcie_ce_max=%g "
				   "(%s)", name_of(d, name, sizeof(name)), ce, c->lim->pcie_ce_max, words);
		burnin_device_figure(r, d->addr, "aer_corrected", (double)ce, "%llu corrected during the burn-in (%s)%s",
				     ce, words, ce > c->lim->pcie_ce_max ? "" : ", within pcie_ce_max");
	}
}

/* the lower of the two ends' maxima; 0 (not judged) when either does not read */
static double lower(double a, double b)
{
	return !a || !b ? 0 : a < b ? a : b;
}

/* One link at the end, against what both its ends can and against its start. */
static void judge_link(struct burnin_result *r, struct pdev *d, struct tally *t)
{
	const struct pdev *port = &w.d[d->up];
	double can_speed = lower(d->l0.max_speed, port->l0.max_speed);
	unsigned can_width = (unsigned)lower(d->l0.max_width, port->l0.max_width);
	int display = is_display(d), narrows = display && !strcmp(d->driver, "amdgpu");
	char name[160], now[32], can[32], start[32], mid[64], state[24];
	struct pci_link l1 = { 0 };
	int p1, up0 = pci_link_up(&d->l0), up1, slow, narrow, failed = 0, excused = 0, retrained = 0;

	name_of(d, name, sizeof(name));
	p1 = pci_powered(d->addr, state, sizeof(state));
	pci_link_read(d->addr, &l1);
	up1 = pci_link_up(&l1);
	d->l1 = l1;
	snprintf(d->power1, sizeof(d->power1), "%s", state);
	if (d->gone_for) {
		failed = retrained = 1;
		burnin_set(r, BURNIN_FAIL, "%s was gone during the load (from +%.0f s, %u of %u readings) and back at the "
			   "end: it fell off the bus and was found again", name, d->gone_s, d->gone_for, w.samples);
	}
	if (d->mute) {
		failed = retrained = 1;
		burnin_set(r, BURNIN_FAIL, "%s: its link did not read during the load, the device in D0 (from +%.0f s, %u "
			   "of %u readings): it stopped answering", name, d->mute_s, d->mute, w.samples);
	}
	if (d->changed && up0 && d->powered0 && (!can_speed || !can_width || !p1)) {
		/* a retraining seen during the load, the device in D0, stands whatever the end reads (D3 at the end) */
		char seen[32];

		link_text(d->l0.speed, d->l0.width, start, sizeof(start));
		link_text(d->seen.speed, d->seen.width, seen, sizeof(seen));
		t->links++;
		t->retrained++;
		burnin_set(r, BURNIN_FAIL, "%s: its link retrained during the load: %s at the start, %s at +%.0f s (%u of %u "
			   "readings during the load unlike the start)", name, start, seen, d->seen_s, d->changed, w.samples);
		return;
	}
	if (!can_speed || !can_width) {
		t->not_judged++;
		burnin_note(r, "%s: link not judged: what it or its port %s can does not read", name, port->addr);
		return;
	}
	if (!d->powered0 || !p1) {
		t->not_judged++;
		burnin_note(r, "%s: link not judged: in %s at the %s (a low-power state Linux put it in: its link is "
			    "parked, not trained below)", name, !d->powered0 ? d->power0 : state,
			    !d->powered0 ? "start" : "end");
		return;
	}
	link_text(can_speed, can_width, can, sizeof(can));
	link_text(d->l0.speed, d->l0.width, start, sizeof(start));
	link_text(l1.speed, l1.width, now, sizeof(now));
	if (up0 && !up1 && p1 == 1) {
		t->links++;
		t->retrained++;
		burnin_set(r, BURNIN_FAIL, "%s: its link no longer read at the end (%s at the start, %s): the device "
			   "stopped answering", name, start, state);
		return;
	}
	if (!up1) {
		t->not_judged++;
		burnin_note(r, "%s: link not judged: it reads no trained link (%s; power %s)", name, now, state);
		return;
	}
	if (!up0)
		burnin_note(r, "%s: its link did not read at the start: a retraining during the load not judged", name);
	/* retrained: unlike the start at the end, or in a reading during the load */
	if (up0 && (differs(&l1, &d->l0) || d->changed)) {
		const struct pci_link *x = differs(&l1, &d->l0) ? &l1 : &d->seen;
		int speed = x->speed < d->l0.speed - 0.01 || x->speed > d->l0.speed + 0.01;

		mid[0] = 0;
		if (d->changed && differs(&d->seen, &l1)) {	/* a reading unlike both ends */
			char seen[32];

			snprintf(mid, sizeof(mid), ", %s at +%.0f s", link_text(d->seen.speed, d->seen.width, seen,
										 sizeof(seen)), d->seen_s);
		}
		if ((x->width != d->l0.width && !narrows) || (speed && !display)) {
			failed = retrained = 1;
			burnin_set(r, BURNIN_FAIL, "%s: its link retrained during the load: %s at the start%s, %s at the end "
				   "(%u of %u readings during the load unlike the start)", name, start, mid, now,
				   d->changed, w.samples);
		} else {
			excused = 1;
		}
	}
	slow = l1.speed < can_speed - 0.01;
	narrow = l1.width < can_width;
	if ((slow && !display) || (narrow && !narrows)) {
		failed = 1;
		t->below++;
		burnin_set(r, BURNIN_FAIL, "%s: its link runs at %s, below the %s both its ends can (it %g GT/s x%u, "
			   "its port %s %g GT/s x%u)", name, now, can, d->l0.max_speed, d->l0.max_width, port->addr,
			   port->l0.max_speed, port->l0.max_width);
	} else if (slow || narrow) {
		excused = 1;
	}
	if (excused) {
		char seen[32];

		str_appendf(t->idle, sizeof(t->idle), "%s%s%s%s at %s%s%s of %s", t->idle[0] ? "; " : "", d->addr,
		    d->slot[0] ? " in slot " : "", d->slot, start, differs(&l1, &d->l0) ? ", then " : "",
		    differs(&l1, &d->l0) ? now : "", can);
		if (d->changed && !differs(&l1, &d->l0))
			str_appendf(t->idle, sizeof(t->idle), " (%s at +%.0f s)", link_text(d->seen.speed, d->seen.width, seen,
										    sizeof(seen)), d->seen_s);
	}
	t->retrained += retrained;
	/* a GPU's link excused in part is not one "at what both ends can" */
	if (failed || !excused)
		t->links++;
	else
		t->not_judged++;
	if (d->unread)
		burnin_note(r, "%s: its link did not read %u times during the load, its power state unknown", name,
			    d->unread);
	if (d->parked)
		burnin_note(r, "%s: in a low-power state at %u readings during the load (not judged then)", name,
			    d->parked);
}

/* pcie.txt in the run's folder: every device watched, its link and its
 * counters at the start and the end (the reason holds the failures, as
 * many as fit; this holds them all) */
static void save_record(const struct burnin_ctx *c)
{
	char path[4096], a[32], b[32], can[32];
	FILE *f;

	if (!c->outdir)
		return;
	snprintf(path, sizeof(path), "%s/pcie.txt", c->outdir);
	f = fopen(path, "we");	/* consent: a regular file in the run's folder */
	if (!f)
		return;
	fprintf(f, "# bootbench burnin, pcie: each PCIe device watched, at the start and the end of the burn-in "
		"(%u link readings during the load, every %g s)\n", w.samples, w.every);
	for (unsigned i = 0; i < w.n; i++) {
		const struct pdev *d = &w.d[i];
		char name[160];

		if (!d->aer0 && !d->judge)
			continue;
		fprintf(f, "%s\n", name_of(d, name, sizeof(name)));
		if (d->gone)
			fprintf(f, "  gone at the end\n");
		if (d->judge) {
			const struct pdev *p = &w.d[d->up];

			link_text(lower(d->l0.max_speed, p->l0.max_speed),
				  (unsigned)lower(d->l0.max_width, p->l0.max_width), can, sizeof(can));
			fprintf(f, "  link %s (%s) at the start, %s (%s) at the end; both ends can %s; %u readings "
				"during the load unlike the start\n", link_text(d->l0.speed, d->l0.width, a, sizeof(a)),
				d->power0, d->gone ? "-" : link_text(d->l1.speed, d->l1.width, b, sizeof(b)),
				d->gone ? "-" : d->power1, can, d->changed + d->gone_for + d->mute + d->unread);
		}
		if (d->aer0 == 1 && d->aer1 == 1) {
			fprintf(f, "  AER corrected %llu -> %llu, fatal %llu -> %llu, nonfatal %llu -> %llu%s\n",
				d->a0.f[0].total, d->a1.f[0].total, d->a0.f[1].total, d->a1.f[1].total,
				d->a0.f[2].total, d->a1.f[2].total, d->back ? " (went back: found again)" : "");
			if (d->a0.rootport && d->a1.rootport)
				fprintf(f, "  received: corrected %llu -> %llu, fatal %llu -> %llu, nonfatal %llu -> %llu\n",
					d->a0.rp[0], d->a1.rp[0], d->a0.rp[1], d->a1.rp[1], d->a0.rp[2], d->a1.rp[2]);
		} else if (d->aer0 && !d->gone) {
			fprintf(f, "  AER counters did not read\n");
		}
	}
	fclose(f);
}

void burnin_pcie(const struct burnin_ctx *c, struct burnin_result *r)
{
	struct tally t = { 0 };
	unsigned watched = 0, read = 0, has_aer = 0;
	int native = 1;

	if (!w.ready)
		return;		/* begin said why */
	hold();
	if (w.sampling) {
		__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
		pthread_join(w.thread, NULL);
		w.sampling = 0;
	}
	judge_gone(r);
	note_appeared(r);
	read_counters(r);
	root_port_extra();
	judge_counters(c, r, &t);
	for (unsigned i = 0; i < w.n; i++) {
		watched += w.d[i].aer0 || w.d[i].judge;
		has_aer += w.d[i].aer0 != 0;
		read += w.d[i].judge;
		if (w.d[i].judge && !w.d[i].gone)
			judge_link(r, &w.d[i], &t);
	}
	if (t.idle[0])
		burnin_note(r, "display controllers' links not judged: their drivers lower the speed while they idle, "
			    "and no component loads them: %s", t.idle);
	save_record(c);
	burnin_figure(r, "pcie_devices", watched, "%u PCIe functions watched: %u with AER counters (%u of them root "
		      "ports, counting what they receive), %u links read at their downstream end", watched, t.aer,
		      t.rootports, read);
	if (t.links)
		burnin_figure(r, "pcie_links_below", t.below, "%u below what both their ends can, %u retrained during "
			      "the load, of %u judged (read at the start, %u time%s during the load, at the end)%s",
			      t.below, t.retrained, t.links, w.samples, w.samples == 1 ? "" : "s",
			      t.not_judged ? "; others not judged (notes)" : "");
	if (t.aer) {
		burnin_figure(r, "aer_corrected", (double)t.ce, "%llu corrected during the burn-in, on %u device%s "
			      "(%llu logged since boot before it)", t.ce, t.ce_devices, t.ce_devices == 1 ? "" : "s",
			      t.ce_before);
		burnin_figure(r, "aer_uncorrected", (double)t.ue, "%llu uncorrectable during the burn-in (%llu logged "
			      "since boot before it)", t.ue, t.ue_before);
		native = pci_aer_native();
		if (!native)
			burnin_note(r, "Linux does not handle AER itself here (no port bound to its aer service: the "
				    "firmware keeps it, firmware first): the counters grow only by the errors the firmware "
				    "reports to Linux (APEI); the BMC's event log (bmc) holds the others");
	} else if (!has_aer) {
		burnin_note(r, "AER not readable: no PCI device has AER counters (aer_dev_correctable): Linux without "
			    "AER (CONFIG_PCIEAER, pci=noaer), or a VM's devices: PCIe errors were not counted");
		if (!t.links)
			burnin_set(r, BURNIN_ERROR, "nothing to watch: no PCIe device with AER counters or a link that "
				   "could be judged (%u PCI devices)", w.n);
		else if (c->lim->pcie_need_aer)
			burnin_set(r, BURNIN_ERROR, "AER not readable: no PCI device has AER counters, so PCIe errors "
				   "were not counted (the %u links judged: %u below, %u retrained; pcie_need_aer=0 lets "
				   "the links alone decide)", t.links, t.below, t.retrained);
	}
	if (r->verdict == BURNIN_SKIPPED) {
		char links[160];

		if (t.links)
			snprintf(links, sizeof(links), "%u link%s at what both %s ends can, none retrained (read at the "
				 "start, %u time%s during the load, at the end)", t.links, t.links == 1 ? "" : "s",
				 t.links == 1 ? "its" : "their", w.samples, w.samples == 1 ? "" : "s");
		else
			snprintf(links, sizeof(links), "no link to judge");
		if (t.aer)
			burnin_set(r, BURNIN_PASS, "no uncorrectable PCIe error during the burn-in on %u device%s with AER "
				   "counters, %llu corrected (pcie_ce_max=%g a device)%s; %s", t.aer, t.aer == 1 ? "" : "s",
				   t.ce, c->lim->pcie_ce_max, native ? "" : ", as far as the firmware reports to Linux",
				   links);
		else
			burnin_set(r, BURNIN_PASS, "%s; PCIe errors not counted (no AER, pcie_need_aer=0)", links);
	}
	free(w.d);
	memset(&w, 0, sizeof(w));
}
