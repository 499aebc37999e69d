# label: Erase disks (NIST 800-88, read back, certificates)
# bootbench erase from the menu: the disks (only those that may be
# written), how (auto: the strongest the drive offers; purge; clear), the
# read-back, then for each disk the last four characters of its serial
# typed back (its name, for a disk with no serial): a wrong one and nothing
# is written. Every disk is erased at once; while they are, a table (one
# line a disk: phase, pass, done, MB/s, time left, errors) is redrawn every
# two seconds from bootbench's --progress-fd, in 80x24. The certificates stay in /run/bootbench/results with the
# run's folder until saved (Save results), signed with bootbench.erase_key
# when the stick holds it.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
pick_disks "Erase: disks (everything on them is lost)" 1 || exit 0
disks=$PICKED
method=$(dialog --stdout --title " Erase: how " --menu "NIST SP 800-88 (docs/erase.md):" 13 76 3 \
	auto "the strongest the drive offers (purge if it can)" \
	purge "the drive's own sanitize; none: not erased" \
	clear "a pass of zeros at the disk's own speed") || exit 0
verify=$(dialog --stdout --title " Erase: read-back " --menu "How much is read back after it:" 12 76 2 \
	full "every byte (as long as the erase again)" \
	sample "NIST's sample: the first and last MiB and 10% of the disk") || exit 0
destroy="" targets=""
for d in $disks; do
	# the serial as bootbench reads it (VPD page 80h, NVMe's, virtio's), blanks left out
	serial=$(bootbench disks --json "/dev/$d" | sed -n 's/^ *"serial" : "\(.*\)",\{0,1\}$/\1/p' | head -n1 | tr -d ' ')
	want=$(echo "$serial" | awk '{ print (length($0) >= 4 ? substr($0, length($0) - 3) : "") }')
	if [ -n "$want" ]; then ask="the last four characters of its serial ($serial)"; else want=$d ask="its name, $d (it has no serial)"; fi
	typed=$(dialog --stdout --title " Erase: confirm $d " --inputbox \
"Everything on /dev/$d will be erased, for good.

Type $ask
to go on, or Esc to go back." 12 76) || exit 0
	[ "$typed" = "$want" ] || { dialog --msgbox "Not confirmed for $d: nothing was written." 6 50; exit 0; }
	targets="$targets /dev/$d" destroy="${destroy:+$destroy,}/dev/$d"
done
key=""
[ -n "${BB_ERASE_KEY:-}" ] && [ -r "${BB_MEDIA:-/media/bootbench}/${BB_ERASE_KEY#/}" ] && key=${BB_MEDIA:-/media/bootbench}/${BB_ERASE_KEY#/}
out=$RESULTS_RUN/$(run_folder_name erase)
mkdir -p "$out"
dialog --infobox "Erasing$targets ($method, $verify read-back)..." 5 70
rm -f /tmp/erase.fifo /tmp/erase-table && mkfifo /tmp/erase.fifo
erase_table /tmp/erase.fifo /tmp/erase-table &
COLUMNS=73 bootbench erase --method="$method" --verify="$verify" --destroy="$destroy" --output="$out" \
	${key:+--key="$key"} ${BB_ERASE_OPERATOR:+--operator="$BB_ERASE_OPERATOR"} --progress-fd=3 $targets \
	3>/tmp/erase.fifo > /tmp/menu-out.raw 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	[ -s /tmp/erase-table ] && erase_table_box /tmp/erase-table
	sleep 2
done
wait "$pid"
rc=$?
wait
rm -f /tmp/erase.fifo
# the screen, kept with the run (View saved results shows a run's summary.txt)
{ cat /tmp/menu-out.raw; echo "exit status $rc"; } > "$out/summary.txt"
show_file "Erase" /tmp/menu-out.raw
describe_system "$out"
