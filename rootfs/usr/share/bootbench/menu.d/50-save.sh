# label: Save results to the stick
# Copies every run of this boot to results/ on the stick, file by file
# atomically (results.sh), and says where.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
BB_RUNDIR=/run/bootbench BB_MEDIA=/media/bootbench
n=0
for d in "$RESULTS_RUN"/*; do
	[ -d "$d" ] || continue
	save_results "$d" usb > /dev/null && [ -n "$SAVED_TO" ] && n=$((n + 1))
done
if grep -q '^results ' /run/bootbench/media 2>/dev/null; then
	dialog --msgbox "$n run(s) saved to results/ on the stick." 6 50
else
	dialog --msgbox "No stick to save to (booted from the network or a CD)." 6 60
fi
