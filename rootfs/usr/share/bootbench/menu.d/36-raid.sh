# label: Compare RAID levels
# bootbench raid from the menu: disks (two or more), levels, profile,
# consent (typing the names), then the run with a gauge of the stage (the
# baseline on each disk, then each level and ZFS pool) and its live figures, then the
# table relative to one disk. Results stay in /run/bootbench/results until
# saved. Ctrl-C stops the run; the array is torn down either way.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
pick_disks "Compare RAID levels: disks" 2 || exit 0
disks=$PICKED
# The levels and ZFS topologies bootbench knows, from its own help; the
# published comparison's four md levels ticked.
bootbench raid --help | sed -n '/^Levels/,/^BOOTBENCH_SCALE/ s/^  \([a-z0-9][a-z0-9-]*\)  *\(.*\)/\1\n\2/p' > /tmp/menu-levels
set --
while IFS= read -r name && IFS= read -r what; do
	case "$name" in raid0|raid1|raid5|raid10-n2) on=on ;; *) on=off ;; esac
	set -- "$@" "$name" "$what" "$on"
done < /tmp/menu-levels
note="ZFS pools need Secure Boot off (their modules are not signed by Debian)."
grep -q '\[none\]' /sys/kernel/security/lockdown 2>/dev/null ||
	[ ! -e /sys/kernel/security/lockdown ] || note="Secure Boot is on here: ZFS pools cannot be made."
picked=$(dialog --stdout --title " Compare RAID levels: levels " --checklist \
	"Space ticks a level or a ZFS pool, Enter goes on.\n$note" 22 78 13 "$@") || exit 0
levels="" zfs=""
for p in $(echo $picked | tr -d '"'); do
	case "$p" in
	stripe|mirror|raidz*) zfs="${zfs:+$zfs,}$p" ;;
	*) levels="${levels:+$levels,}$p" ;;
	esac
done
[ -n "$levels$zfs" ] || exit 0
profile=$(dialog --stdout --title " Compare RAID levels: tests " --menu "Which tests on each disk and array?" 12 78 3 \
	mdraid "the mdadm RAID5 vs RAID10 method: 1M sequential, 4k random" \
	yabs "YABS's mixed random read/write at 4k to 1m" \
	ars "the Ars Technica QD1/QD8 matrix") || exit 0
consent $disks || { dialog --msgbox "Not confirmed: nothing was written." 6 50; exit 0; }
out=$RESULTS_RUN/$(run_folder_name raid)
mkdir -p "$out"
targets="" destroy=""
for d in $disks; do targets="$targets /dev/$d"; destroy="${destroy:+$destroy,}/dev/$d"; done
# Ctrl-C is for bootbench alone: this shell, awk and dialog ignore it (and
# so keep the gauge's pipe open), bootbench sets its own handler, stops its
# jobs and finishes the table of the results so far.
trap '' INT
# The gauge: stage lines (K of M) and each run's progress lines (fd 3)
# become dialog's XXX blocks; the stages and the table go to summary.txt.
# COLUMNS: the box's width, which bootbench folds its prose to (issue 48)
( COLUMNS=73 bootbench raid ${levels:+--levels="$levels"} ${zfs:+--zfs="$zfs"} --profile="$profile" --destroy="$destroy" --output="$out" --progress-fd=3 $targets \
	3>&1 > "$out/summary.txt" 2>&1; echo "exit status $?" >> "$out/summary.txt" ) |
	awk '$1 == "stage" { k = $2; m = $3; $1 = $2 = $3 = ""; text = substr($0, 4)
		printf "XXX\n%d\nStage %d of %d: %s\n\nCtrl-C stops the run; arrays are torn down.\nXXX\n", (k - 1) * 100 / m, k, m, text
		fflush(); next }
	$1 == "progress" && m {
		printf "XXX\n%d\nStage %d of %d: %s\n\nIOPS: read %s, write %s   %s MB/s (%s)\nCtrl-C stops the run; arrays are torn down.\nXXX\n", ((k - 1) + $2 / 100) * 100 / m, k, m, text, $5, $6, $7, $8
		fflush() }' |
	dialog --title "$(titled_on 76 "Compare RAID levels" $targets)" --gauge "Starting..." 14 76 0
describe_system "$out"
show_file "Compare RAID levels: results" "$out/summary.txt"
