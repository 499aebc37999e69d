# label: Run a profile
# Profile, then disks, then consent (typing the names), then the run with a
# gauge of live IOPS, MB/s and time left (Ctrl-C stops it and keeps the
# results so far), then the profile's table. Results stay in
# /run/bootbench/results until saved.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
profile=${PROFILE:-}
if [ -z "$profile" ]; then
	set --
	# each summary cut to the list's width (the whole of it: bootbench profile --list)
	bootbench profile --list | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)/\1\n\2/p' | fit 58 > /tmp/menu-profiles
	while IFS= read -r name && IFS= read -r what; do set -- "$@" "$name" "$what"; done < /tmp/menu-profiles
	profile=$(dialog --stdout --title " Run a profile " --menu "Which method?" 18 78 10 "$@") || exit 0
fi
pick_disks "$profile: disks" 1 || exit 0
disks=$PICKED
consent $disks || { dialog --msgbox "Not confirmed: nothing was written." 6 50; exit 0; }
out=$RESULTS_RUN/$(run_folder_name "$profile")
mkdir -p "$out"
targets="" destroy=""
for d in $disks; do targets="$targets /dev/$d"; destroy="${destroy:+$destroy,}/dev/$d"; done
# Ctrl-C is for bootbench alone: this shell, awk and dialog ignore it (and
# so keep the gauge's pipe open), bootbench sets its own handler, stops its
# jobs and finishes the table of the results so far.
trap '' INT
# The gauge: bootbench's progress lines (fd 3) become dialog's XXX blocks;
# the profile's table and messages go to summary.txt, folded to the box's
# 73 columns (COLUMNS) as the burn-in's, the raid's and the erase's are.
( COLUMNS=73 bootbench profile "$profile" --destroy="$destroy" --output="$out" --progress-fd=3 $targets \
	3>&1 > "$out/summary.txt" 2>&1; echo "exit status $?" >> "$out/summary.txt" ) |
	awk '$1 == "progress" {
		printf "XXX\n%d\n%s\n\nIOPS: read %s, write %s   %s MB/s\nElapsed %s s, about %s s left\n\nCtrl-C stops the run and keeps the results so far.\nXXX\n", $2, $8, $5, $6, $7, $3, $4
		fflush() }' |
	dialog --title "$(titled_on 72 "$profile" $targets)" --gauge "Starting..." 14 72 0
describe_system "$out"
show_file "$profile: results" "$out/summary.txt"
