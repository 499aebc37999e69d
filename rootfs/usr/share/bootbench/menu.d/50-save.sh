# label: Save results (stick, network)
# Sends every run of this boot to a destination: the stick, one of those
# bootbench.save names, or a URL typed in (nfs://, nfs3://, smb://,
# https://; passwords come from the credentials of bootbench.conf). Each
# destination's progress and outcome are shown as bootbench save reports
# them; what is not delivered waits in the spool.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
BB_RUNDIR=/run/bootbench BB_MEDIA=/media/bootbench
stick=""
grep -q '^results ' /run/bootbench/media 2>/dev/null && stick=1
set --
[ -z "$stick" ] || set -- usb "results/ on the stick"
for d in $(echo "${BB_SAVE:-}" | tr ',' ' '); do
	case "$d" in usb|console|none) ;; *) set -- "$@" "$d" "from bootbench.save" ;; esac
done
set -- "$@" url "type a destination (nfs://, smb://, https://)"
dest=$(dialog --stdout --title " Save results " --menu "Where to?" 14 76 6 "$@") || exit 0
if [ "$dest" = url ]; then
	dest=$(dialog --stdout --inputbox "Destination, e.g. nfs://10.0.0.5/export/results or smb://user@fs1/share/dir:" 9 76) || exit 0
	if ! why=$(bootbench save --check "$dest" 2>&1); then
		dialog --msgbox "${why#bootbench: save: }" 8 76
		exit 0
	fi
fi
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
			bootbench save --stick="${stick:+$BB_MEDIA}${stick:-none}" $(save_options) "$dest" "${d%/}" 2>&1 &&
				ok=$((ok + 1))
		done
		echo
		echo "$ok of $n run(s) delivered to $dest."
	} | dialog --title " Save to $dest " --programbox 20 78
fi
