# label: Save results (stick, network)
# Sends every run of this boot to a destination: the stick, one of those
# bootbench.save names, or a URL typed in (nfs://, nfs3://, smb://,
# https://; passwords come from the credentials of bootbench.conf). Each
# destination's progress and outcome are shown as bootbench save reports
# them; what is not delivered waits in the spool.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
BB_RUNDIR=/run/bootbench BB_MEDIA=/media/bootbench
# the stick's copy first, when there is a stick for results
stick=none
grep -q '^results ' /run/bootbench/media 2>/dev/null && stick=$BB_MEDIA
pick_dest "Save results" stick || exit 0
dest=$DEST
n=$(ls -d "$RESULTS_RUN"/*/ 2>/dev/null | wc -l)
if [ "$n" = 0 ]; then
	dialog --msgbox "No results in this boot yet: run a profile first." 6 60
elif [ "$dest" = usb ]; then
	ok=0
	for d in "$RESULTS_RUN"/*/; do save_results "${d%/}" usb > /dev/null && ok=$((ok + 1)); done
	dialog --msgbox "$ok run(s) saved to results/ on the stick." 6 50
else
	# bootbench save's lines (each attempt, retry and outcome) as they come
	{
		ok=0
		for d in "$RESULTS_RUN"/*/; do
			# shellcheck disable=SC2046
			bootbench save --stick="$stick" $(save_options) "$dest" "${d%/}" 2>&1 &&
				ok=$((ok + 1))
		done
		echo
		echo "$ok of $n run(s) delivered to $dest."
	# folded at words to the box (its lines are cut, not folded: a failure's reason was lost)
	} | fold_live 74 | dialog --title " Save to $dest " --programbox 20 78
fi
