# label: Burn-in (the whole server: disks, CPU, memory, NICs, BMC)
# bootbench burnin from the menu: the components, the disks that may be
# written (consent: the others are read), how long, then one live screen
# with each component's state and the time left (Ctrl-C stops it and keeps
# what was measured), then the verdicts. Results stay in
# /run/bootbench/results until saved.
. /lib/bootbench/menu-lib.sh
. /lib/bootbench/results.sh
net=off bmc=off pcie=off
[ -n "${BB_IPERF:-}" ] && net=on
[ -e /dev/ipmi0 ] && bmc=on
# a machine whose PCIe devices have AER counters (a VM's seldom do)
for f in /sys/bus/pci/devices/*/aer_dev_correctable; do [ -e "$f" ] && pcie=on; break; done
picked=$(dialog --stdout --title " Burn-in: components " --checklist \
"Space ticks a component, Enter goes on. One that cannot be tested (no
sensor, no BMC, no iperf3 server) is an ERROR, never a pass." 17 76 6 \
	disks "each disk: its self-test, a verified write/read pass" on \
	cpu "every CPU under checking stressors; heat, throttling" on \
	memory "what is free, written and verified; ECC error counts" on \
	net "links, errors; iperf3 to ${BB_IPERF:-bootbench.iperf (not set)}" $net \
	bmc "the BMC's event log and sensors (ipmitool)" $bmc \
	pcie "each device's AER errors; each link's speed and width" $pcie) || exit 0
components=$(echo $picked | tr -d '"' | tr ' ' ',')
[ -n "$components" ] || exit 0
destroy="" targets=""
case ",$components," in
*,disks,*)
	# the disks consented to get the verified write passes; the rest are read
	if disk_items | grep -q . && pick_disks "Burn-in: disks to write (the others are only read)" 0 &&
		[ -n "$PICKED" ]; then
		consent $PICKED || { dialog --msgbox "Not confirmed: nothing was written." 6 50; exit 0; }
		for d in $PICKED; do destroy="${destroy:+$destroy,}/dev/$d"; done
	fi ;;
esac
duration=$(dialog --stdout --title " Burn-in: how long " --menu "The whole time, shared by the components:" 13 76 5 \
	quick "2 minutes a component: a commissioning check" \
	1h "an hour" \
	8h "eight hours: overnight" \
	24h "a day, as Ironic's burn-in" \
	72h "three days") || exit 0
[ "$duration" = quick ] && duration=""
out=$RESULTS_RUN/$(run_folder_name burnin)
mkdir -p "$out"
# Ctrl-C is for bootbench alone (it stops the component running and keeps
# what was measured): this shell, awk and dialog ignore it
trap '' INT
# the live screen: bootbench's component lines (fd 3) as dialog's XXX blocks;
# the verdicts folded by bootbench to the box (COLUMNS), each line under its
# own lead, before show_file's fold (which would start them at column 1)
( COLUMNS=73 bootbench burnin --components="$components" ${duration:+--duration="$duration"} ${destroy:+--destroy="$destroy"} \
	${BB_IPERF:+--iperf="$BB_IPERF"} --output="$out" --progress-fd=3 3>&1 > "$out/summary.txt" 2>&1
	echo "exit status $?" >> "$out/summary.txt" ) |
	awk -v list="$components" 'BEGIN { n = split(list, c, ","); for (i = 1; i <= n; i++) st[c[i]] = "waiting" }
	$1 == "burnin" { st[$2] = $3; left = $4; if (!total) total = left + 1
		printf "XXX\n%d\n", (total - left) * 100 / total
		for (i = 1; i <= n; i++) printf "  %-8s %s\n", c[i], st[c[i]]
		printf "\nAbout %d min left. Ctrl-C stops and keeps what was measured.\nXXX\n", (left + 59) / 60
		fflush() }' |
	dialog --title " Burn-in: $components " --gauge "Starting..." 16 72 0
describe_system "$out"
show_file "Burn-in: verdicts" "$out/summary.txt"
