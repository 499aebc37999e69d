# SPDX-License-Identifier: MIT
# burnin_pcie.sh - bootbench burnin's pcie component (issue 45, "PCIe
# health under load") over a recorded sysfs (BOOTBENCH_SYSROOT) that the
# test changes while the burn-in holds before its end's reading
# (BOOTBENCH_BURNIN_HOLD=pcie: its sampling thread still reads the links),
# as a failing machine would: an uncorrectable AER error, corrected ones
# under and over pcie_ce_max, a message a root port received that no
# device counted, a link that trained below what both its ends can, one
# that retrained during the load (at the end, or and back between two
# readings), a switch that fell off the bus, counters gone back (a device
# removed and found again). What is not judged is a note, never a FAIL nor
# a PASS of its own: a GPU's speed at idle, a device in D3hot, a device
# that appeared. Counters that do not read, no AER at all (unless
# pcie_need_aer=0) and nothing to watch are ERRORs. The tree follows the
# kernel's sysfs ABI (sysfs-bus-pci, sysfs-bus-pci-devices-aer_stats) and
# drivers/pci/pcie/aer.c's counter lines. A QEMU guest (q35, a
# pcie-root-port, the monitor's pcie_aer_inject_error) would cost a boot
# under TCG, minutes: not here.
. tests/lib.sh
need_commands python3
R=$T/root
COR="RxErr BadTLP BadDLLP Rollover Timeout NonFatalErr CorrIntErr HeaderOF"
UNC="Undefined DLP SDES TLP FCP CmpltTO CmpltAbrt UnxCmplt RxOF MalfTLP ECRC UnsupReq ACSViol UncorrIntErr BlockedTLP AtomicOpBlocked TLPBlockedErr PoisonTLPBlocked"
# dev PATH CLASS VENDOR:DEVICE DRIVER: a device at sys/devices/PATH, as sysfs links it from /sys/bus/pci/devices
dev() {
	d=$R/sys/devices/$1
	mkdir -p "$d" "$R/sys/bus/pci/devices" "$R/sys/bus/pci/drivers/$4"
	echo "0x$2" > "$d/class"
	echo "0x${3%:*}" > "$d/vendor"
	echo "0x${3#*:}" > "$d/device"
	echo D0 > "$d/power_state"
	ln -s "$R/sys/bus/pci/drivers/$4" "$d/driver"
	ln -s "../../../devices/$1" "$R/sys/bus/pci/devices/${1##*/}"
}
# link ADDRESS SPEED WIDTH MAX-SPEED MAX-WIDTH
link() {
	d=$R/sys/bus/pci/devices/$1
	echo "$2 GT/s PCIe" > "$d/current_link_speed"
	echo "$3" > "$d/current_link_width"
	echo "$4 GT/s PCIe" > "$d/max_link_speed"
	echo "$5" > "$d/max_link_width"
}
# aer ADDRESS [rootport]: AER's counters, every one 0
aer() {
	d=$R/sys/bus/pci/devices/$1
	{ for k in $COR; do echo "$k 0"; done; echo "TOTAL_ERR_COR 0"; } > "$d/aer_dev_correctable"
	{ for k in $UNC; do echo "$k 0"; done; echo "TOTAL_ERR_FATAL 0"; } > "$d/aer_dev_fatal"
	{ for k in $UNC; do echo "$k 0"; done; echo "TOTAL_ERR_NONFATAL 0"; } > "$d/aer_dev_nonfatal"
	if [ "${2:-}" = rootport ]; then
		for f in cor fatal nonfatal; do echo 0 > "$d/aer_rootport_total_err_$f"; done
		mkdir -p "$R/sys/bus/pci_express/drivers/aer/$1:pcie002"
	fi
}
# count ADDRESS FILE KIND N: N more errors of KIND in FILE (correctable,
# fatal, nonfatal), its TOTAL too, as the kernel counts a message
count() {
	f=$R/sys/bus/pci/devices/$1/aer_dev_$2
	awk -v k="$3" -v n="$4" '$1 == k || $1 ~ /^TOTAL_/ { $2 += n } { print }' "$f" > "$f.new" && mv "$f.new" "$f"
}
# received ADDRESS KIND N: a root port's count of the messages it received (cor, fatal, nonfatal)
received() {
	f=$R/sys/bus/pci/devices/$1/aer_rootport_total_err_$2
	echo $(($(cat "$f") + $3)) > "$f"
}
slot() { mkdir -p "$R/sys/bus/pci/slots/$1"; echo "$2" > "$R/sys/bus/pci/slots/$1/address"; }
# A Gen4 server: an NVMe drive in slot 1; a Gen4 NIC (two functions) in a
# Gen3 slot 2 (its port's 8 GT/s is the most the link can: not its
# fault); a GPU in slot 3 idling at 2.5 GT/s; a switch below a root port
# with an NVMe drive in slot 7; a SATA controller on the root bus (no
# link: an integrated endpoint's link files read Unknown).
machine() {
	rm -rf "$R"
	H=pci0000:00
	dev $H/0000:00:00.0 060000 8086:09a2 none
	dev $H/0000:00:01.0 060400 8086:347a pcieport
	link 0000:00:01.0 16.0 4 16.0 16
	aer 0000:00:01.0 rootport
	dev $H/0000:00:01.0/0000:01:00.0 010802 144d:a80a nvme
	link 0000:01:00.0 16.0 4 16.0 4
	aer 0000:01:00.0
	dev $H/0000:00:02.0 060400 8086:347b pcieport
	link 0000:00:02.0 8.0 16 8.0 16
	aer 0000:00:02.0 rootport
	for f in 0 1; do
		dev $H/0000:00:02.0/0000:02:00.$f 020000 8086:1592 ice
		link 0000:02:00.$f 8.0 16 16.0 16
		aer 0000:02:00.$f
	done
	dev $H/0000:00:03.0 060400 8086:347c pcieport
	link 0000:00:03.0 2.5 16 16.0 16
	aer 0000:00:03.0 rootport
	dev $H/0000:00:03.0/0000:03:00.0 030200 10de:2335 nvidia
	link 0000:03:00.0 2.5 16 16.0 16
	aer 0000:03:00.0
	dev $H/0000:00:04.0 060400 8086:347d pcieport
	link 0000:00:04.0 16.0 16 16.0 16
	aer 0000:00:04.0 rootport
	S=$H/0000:00:04.0/0000:04:00.0
	dev $S 060400 1000:c030 pcieport
	link 0000:04:00.0 16.0 16 16.0 16
	aer 0000:04:00.0
	dev $S/0000:05:00.0 060400 1000:c030 pcieport
	link 0000:05:00.0 16.0 4 16.0 4
	aer 0000:05:00.0
	dev $S/0000:05:00.0/0000:06:00.0 010802 8086:0b60 nvme
	link 0000:06:00.0 16.0 4 16.0 4
	aer 0000:06:00.0
	dev $H/0000:00:1f.2 010601 8086:a182 ahci
	echo Unknown > "$R/sys/bus/pci/devices/0000:00:1f.2/current_link_speed"
	echo 0 > "$R/sys/bus/pci/devices/0000:00:1f.2/current_link_width"
	echo Unknown > "$R/sys/bus/pci/devices/0000:00:1f.2/max_link_speed"
	echo 0 > "$R/sys/bus/pci/devices/0000:00:1f.2/max_link_width"
	slot 1 0000:01:00
	slot 2 0000:02:00
	slot 3 0000:03:00
	slot 7 0000:06:00
}
# burn NAME [LIMITS] [CHANGE]: the pcie component alone, held before its
# end's reading while CHANGE (shell) changes the tree; results in $T/NAME/
burn() {
	mkdir -p "$T/$1"
	BOOTBENCH_SYSROOT=$R BOOTBENCH_SCALE=0.02 BOOTBENCH_BURNIN_HOLD=pcie "$BB" burnin --components=pcie \
		${2:+--limits="$2"} --output="$T/$1" > "$T/$1.out" 2> "$T/$1.err" &
	pid=$!
	i=0
	until grep -q 'held before the end' "$T/$1.err" 2>/dev/null || ! kill -0 $pid 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	eval "${3:-:}"
	kill -CONT $pid 2>/dev/null
	wait $pid
	echo $? > "$T/$1.rc"
}
verdict() { # NAME VERDICT [PYTHON about c, the component]
	json "$T/$1/burnin.json" "(lambda c: c['verdict'] == '$2' and (${3:-True}))([x for x in d['components'] if x['name'] == 'pcie'][0])"
}
fig() { echo "c['figures']['$1']['value'] == $2"; }
rc() { [ "$(cat "$T/$1.rc")" = "$2" ]; }
has() { grep -qF -- "$2" "$T/$1/burnin.txt" || { echo "not in $1/burnin.txt: $2"; return 1; }; }

machine
burn well "" "sleep 0.5"
check "a sound machine: PASS, exit 0" eval "rc well 0 && verdict well PASS"
check "... figures: 11 PCIe functions (the SATA controller's link files read Unknown: not one), 5 links, none below, no AER error" \
	verdict well PASS "$(fig pcie_devices 11) and $(fig pcie_links_below 0) and $(fig aer_corrected 0) and $(fig aer_uncorrected 0) and '5 links read' in c['figures']['pcie_devices']['text']"
check "... 4 links at what both their ends can (the Gen4 NIC at 8 GT/s in the Gen3 slot among them, once for its two functions), the GPU's not" \
	verdict well PASS "'0000:02:00' not in c['reason'] + c['not_run'] and '4 links at what both their ends can' in c['reason']"
check "... the GPU's 2.5 GT/s at idle is a note naming its slot, not judged" verdict well PASS \
	"\"display controllers' links not judged: their drivers lower the speed while they idle, and no component loads them: 0000:03:00.0 in slot 3 at 2.5 GT/s x16 of 16 GT/s x16\" in c['not_run']"
check "... pcie.txt in the run's folder: every device watched, its link and counters at both ends" sh -c \
	"grep -c '^0000:' '$T/well/pcie.txt' | grep -qx 11 && grep -A1 '^0000:06:00.0 in slot 7' '$T/well/pcie.txt' | grep -q 'link 16 GT/s x4 (D0) at the start, 16 GT/s x4 (D0) at the end; both ends can 16 GT/s x4'"
check "... the links were read during the load" verdict well PASS "re.search('none retrained .read at the start, [1-9][0-9]* times? during the load, at the end.', c['reason'])"

machine
burn uncorrectable "" "count 0000:01:00.0 nonfatal CmpltTO 1"
check "a nonfatal error during the burn-in: FAIL, exit 1" eval "rc uncorrectable 1 && verdict uncorrectable FAIL \"$(fig aer_uncorrected 1)\""
check "... naming the device, its slot and the counter" has uncorrectable \
	"0000:01:00.0 in slot 1 (NVMe controller 144d:a80a): 1 uncorrectable PCIe error during the burn-in (aer_dev_nonfatal: CmpltTO +1)"

machine
count 0000:02:00.0 correctable RxErr 5	# before the burn-in: not its
burn corrected "" "count 0000:02:00.0 correctable BadTLP 3; received 0000:00:02.0 cor 3"
check "3 corrected errors on the NIC, the root port receiving them: PASS, 3 counted once" verdict corrected PASS \
	"$(fig aer_corrected 3) and '(5 logged since boot before it)' in c['figures']['aer_corrected']['text']"
check "... a figure of the NIC's own" json "$T/corrected/burnin.json" \
	"[x for x in d['components'] if x['name'] == 'pcie'][0]['devices'] == [{'device': '0000:02:00.0', 'figures': {'aer_corrected': {'value': 3, 'text': '3 corrected during the burn-in (aer_dev_correctable: BadTLP +3), within pcie_ce_max'}}}]"
machine
burn ce_over pcie_ce_max=2 "count 0000:02:00.0 correctable BadTLP 2; count 0000:02:00.0 correctable RxErr 1; received 0000:00:02.0 cor 3"
check "... over pcie_ce_max=2: FAIL naming the NIC, its slot and the kinds" has ce_over \
	"0000:02:00.0 in slot 2 (Ethernet controller 8086:1592): 3 corrected PCIe errors during the burn-in, over pcie_ce_max=2 (aer_dev_correctable: RxErr +1, BadTLP +2)"

machine
burn unattributed "" "received 0000:00:02.0 fatal 1"
check "a fatal error message the root port received that no device counted: FAIL, the port of slot 2" has unattributed \
	"0000:00:02.0, the port of slot 2 (PCI bridge 8086:347b): 1 uncorrectable PCIe error during the burn-in (aer_rootport_total_err_fatal +1 that no device below it counted)"

machine
link 0000:06:00.0 16.0 2 16.0 4
link 0000:05:00.0 16.0 2 16.0 4
burn narrow
check "the drive behind the switch trained at x2 of x4: FAIL naming slot 7, both ends' maxima" eval \
	"rc narrow 1 && verdict narrow FAIL \"$(fig pcie_links_below 1)\""
check "... in words" has narrow \
	"0000:06:00.0 in slot 7 (NVMe controller 8086:0b60): its link runs at 16 GT/s x2, below the 16 GT/s x4 both its ends can (it 16 GT/s x4, its port 0000:05:00.0 16 GT/s x4)"
check "... the switch's own link and its downstream port not judged as links of their own" sh -c \
	"! grep -q '0000:05:00.0 (PCI bridge\|0000:04:00.0 (PCI bridge' '$T/narrow/burnin.txt'"

machine
burn slower "" "link 0000:01:00.0 8.0 4 16.0 4"
check "the drive's link at 8 GT/s at the end: FAIL, retrained during the load and below" eval "rc slower 1 && verdict slower FAIL"
check "... retrained, in words" has slower "0000:01:00.0 in slot 1 (NVMe controller 144d:a80a): its link retrained during the load: 16 GT/s x4 at the start, 8 GT/s x4 at the end"
check "... below, in words" has slower "its link runs at 8 GT/s x4, below the 16 GT/s x4 both its ends can"

machine
burn flap "" "link 0000:01:00.0 16.0 1 16.0 4; sleep 1; link 0000:01:00.0 16.0 4 16.0 4"
check "the drive's link at x1 for a second during the load, x4 at both ends: FAIL, retrained" eval "rc flap 1 && verdict flap FAIL"
check "... the reading during the load named" sh -c \
	"grep -q '0000:01:00.0 in slot 1 (NVMe controller 144d:a80a): its link retrained during the load: 16 GT/s x4 at the start, 16 GT/s x1 at +[0-9]* s, 16 GT/s x4 at the end ([1-9][0-9]* of [1-9][0-9]* readings' '$T/flap/burnin.txt'"

machine
burn vanished "" "mv '$R/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0' '$T/away'; mv '$R/sys/bus/pci/devices/0000:01:00.0' '$T/away.link'; sleep 1; mv '$T/away' '$R/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0'; mv '$T/away.link' '$R/sys/bus/pci/devices/0000:01:00.0'"
check "the drive gone for a second during the load, back at the end: FAIL, fell off the bus and found again" has vanished \
	"0000:01:00.0 in slot 1 (NVMe controller 144d:a80a) was gone during the load (from +"
machine
burn mute "" "for f in current_link_speed current_link_width; do mv '$R/sys/bus/pci/devices/0000:01:00.0/'\$f '$T/'\$f; done; sleep 1; for f in current_link_speed current_link_width; do mv '$T/'\$f '$R/sys/bus/pci/devices/0000:01:00.0/'; done"
check "the drive's link not reading for a second while in D0: FAIL, it stopped answering" has mute \
	"0000:01:00.0 in slot 1 (NVMe controller 144d:a80a): its link did not read during the load, the device in D0"

machine
burn gone "" "rm -rf '$R/sys/devices/pci0000:00/0000:00:04.0/0000:04:00.0' '$R'/sys/bus/pci/devices/0000:0[456]:*"
check "a switch gone at the end: FAIL once, the devices below it counted with it" has gone \
	"0000:04:00.0 (PCI bridge 1000:c030; in no slot the firmware names) was gone at the end of the burn-in, and 2 devices below it"
check "... no FAIL of each device below it" sh -c "! grep -q '0000:06:00.0 in slot 7.*was gone' '$T/gone/burnin.txt'"

machine
count 0000:01:00.0 correctable RxErr 4
burn back "" "aer 0000:01:00.0; count 0000:01:00.0 correctable BadDLLP 1"
check "the drive's counters went back (4 corrected to 1): FAIL, found again; its 1 since counted" eval \
	"verdict back FAIL \"$(fig aer_corrected 1)\""
check "... in words" has back "the AER counters of 0000:01:00.0 in slot 1 (NVMe controller 144d:a80a) went back during the burn-in (corrected 4 to 1"

machine
burn asleep "" "echo D3hot > '$R/sys/bus/pci/devices/0000:01:00.0/power_state'; link 0000:01:00.0 2.5 1 16.0 4"
check "the drive in D3hot at the end, its link parked: PASS, a note" verdict asleep PASS \
	"'0000:01:00.0 in slot 1 (NVMe controller 144d:a80a): link not judged: in D3hot at the end' in c['not_run']"

machine
link 0000:03:00.0 16.0 8 16.0 16
burn gpu_narrow
check "the GPU at x8 of x16 (nvidia's driver does not narrow it): FAIL" has gpu_narrow \
	"0000:03:00.0 in slot 3 (3D controller 10de:2335): its link runs at 16 GT/s x8, below the 16 GT/s x16"

machine
burn appeared "" "dev pci0000:00/0000:00:05.0 060400 8086:347e pcieport"
check "a device that appeared during the burn-in: a note, PASS" verdict appeared PASS \
	"'0000:00:05.0 (PCI bridge 8086:347e; in no slot the firmware names) appeared during the burn-in' in c['not_run']"

machine
printf 'RxErr zero\n' > "$R/sys/bus/pci/devices/0000:02:00.1/aer_dev_correctable"
burn unreadable
check "counters that do not read at the start: ERROR naming the device, never PASS" eval "rc unreadable 1 && verdict unreadable ERROR"
check "... in words" has unreadable "the AER counters of 0000:02:00.1 in slot 2 (Ethernet controller 8086:1592) did not read at the start: aer_dev_correctable reads as no counter Linux writes"
machine
burn unreadable_end "" "rm '$R/sys/bus/pci/devices/0000:02:00.1/aer_dev_fatal'"
check "... or at the end: ERROR" has unreadable_end "the AER counters of 0000:02:00.1 in slot 2 (Ethernet controller 8086:1592) did not read at the end: aer_dev_fatal does not read"

machine
rm -rf "$R/sys/bus/pci_express"
burn firmware_first
check "AER the firmware's (no port bound to Linux's aer service): PASS, said in a note" verdict firmware_first PASS \
	"'firmware first' in c['not_run'] and 'as far as the firmware reports to Linux' in c['reason']"

machine
find "$R/sys/devices" -name 'aer_*' -exec rm {} +
burn noaer
check "no AER counters anywhere: ERROR (pcie_need_aer=1), the links still judged, exit 1" eval \
	"rc noaer 1 && verdict noaer ERROR \"'AER not readable' in c['reason'] and 'aer_corrected' not in c['figures'] and $(fig pcie_links_below 0)\""
burn noaer0 pcie_need_aer=0
check "... with pcie_need_aer=0: PASS on the links, errors said not counted" verdict noaer0 PASS \
	"'PCIe errors not counted' in c['reason'] and 'AER not readable' in c['not_run'] and 'aer_uncorrected' not in c['figures']"
link 0000:01:00.0 8.0 4 16.0 4
burn noaer_fail
check "... a link below still FAILs without AER" verdict noaer_fail FAIL "'its link runs at 8 GT/s x4' in c['reason']"

rm -rf "$R"
mkdir -p "$R/sys/bus/pci/devices"
burn nothing "" ""
check "no PCI device at all: ERROR, nothing to watch, even with pcie_need_aer=0" eval "rc nothing 1 && verdict nothing ERROR \"'nothing to watch' in c['reason']\""
finish
