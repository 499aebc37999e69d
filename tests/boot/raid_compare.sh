# SPDX-License-Identifier: MIT
# Boot test: the RAID comparison unattended (bootbench.run=mdraid with
# bootbench.raid=0,1,5,10) on four virtual disks, scaled down (0.002: each
# test at its least, 0.1 s; rows, not figures, are checked): the baseline
# on each disk, then each level created with mdadm, measured and wiped. The
# table with its baseline row and the JSON are saved to the stick; the host
# then finds no md superblock on any disk (mdadm --examine on the images).
. tests/bootlib.sh
need_artifacts
need_commands mdadm
stick_with_conf "$T/stick.img" run=mdraid raid=0,1,5,10 targets=vda,vdb,vdc,vdd destroy=vda,vdb,vdc,vdd \
	scale=0.002 save=usb after=poweroff
virtio_disks 4 96M
# one vCPU: the profile's tests are timed, and a second vCPU under TCG only
# burns host CPU beside the first (22 CPU-s here against 30 with two, in
# the same wall time)
if boot --fw bios --usb "$T/stick.img" $disks --smp 1; then
	check "the comparison exited 0" serial_has 'raid: exit status 0'
	check "every level was created and stopped" sh -c "for l in raid0 raid1 raid5 raid10-n2; do
		grep -q \"bootbench-\$l stopped, superblocks zeroed\" '$T/serial.log' || exit 1; done"
	for i in 1 2 3 4; do
		check "no md superblock is left on disk $i" sh -c "mdadm --examine '$T/d$i.img' 2>&1 | grep -q 'No md superblock detected'"
	done
	if fetch_results "$T/stick.img" >/dev/null; then
		check "the table has the baseline row and a row per level" sh -c "
			grep -q '^mdraid-seqwrite-1m  *write 1 disk  .* 1.00x ' '$T/results/raid.txt' &&
			for l in raid0 raid1 raid5 raid10-n2; do grep -q \"^  *\$l  *[0-9]\" '$T/results/raid.txt' || exit 1; done"
		check "raid.json: four disks with a baseline, four levels measured without error" json "$T/results/raid.json" \
			'len(d["disks"]) == 4 and all(len(x["baseline"]) == 4 for x in d["disks"]) and
			 [l["level"] for l in d["levels"]] == ["raid0", "raid1", "raid5", "raid10-n2"] and
			 all(l["status"] == 0 and len(l["results"]) == 4 for l in d["levels"])'
		check "raid.json: the mdadm command used --assume-clean where it applies" json "$T/results/raid.json" \
			'all(("--assume-clean" in l["mdadm"]) == (l["level"] != "raid0") for l in d["levels"])'
		check "raid.json: each level is relative to the baseline" json "$T/results/raid.json" \
			'all(r["vs_baseline"] > 0 for l in d["levels"] for r in l["results"])'
		check "raid.json: the parity verdict for raid5" json "$T/results/raid.json" \
			'd["parity_verdict"][0]["level"] == "raid5" and d["parity_verdict"][0]["parity_one_core_mbs"] > 0'
		check "each run's fio JSON is saved" sh -c "[ -s '$T/results/baseline-vda.json' ] && [ -s '$T/results/raid5.json' ]"
		check "report.html: a chart per test of the four levels relative to one disk, the parity verdict" sh -c "
			[ \$(grep -c '<title>mdraid-[a-z0-9-]* [a-z]* (one disk: ' '$T/results/report.html') = 4 ] &&
			for l in raid0 raid1 raid5 raid10-n2; do
				[ \$(grep -c \">\$l (p99 [0-9]* us)</text>\" '$T/results/report.html') = 4 ] || exit 1; done &&
			grep -q 'raid5 on 4 disks' '$T/results/report.html'"
		"$PWD/out/bootbench" compare "$T/results" > "$T/compare.txt" 2>&1
		check "compare reads the folder: the four disks' baselines one group per test" \
			grep -qE '^  group unknown model / unknown firmware / 96\.0MiB: 4 disks' "$T/compare.txt"
		check "... and the levels relative to one disk, the Ars way: 4 tests x 4 levels" sh -c "
			sed -n '/^RAID levels and ZFS pools relative to one disk/,/^\$/p' '$T/compare.txt' > '$T/levels.txt' &&
			[ \$(grep -cE ' (raid0|raid1|raid5|raid10-n2) +1 +[0-9.]+x ' '$T/levels.txt') = 16 ]"
	else
		bad "a results folder is on the stick"
	fi
fi
finish
