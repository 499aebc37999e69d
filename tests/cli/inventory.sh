# SPDX-License-Identifier: MIT
# inventory.sh - bootbench inventory and compare --inventory on recorded
# machines (BOOTBENCH_SYSROOT): an SMBIOS table written by tests/smbios.py
# as a vendor's firmware lays it out (two sockets, eight memory slots of
# which some are empty, a DIMM over 32 GiB in the extended size field, an
# old 2.3-length structure without a part number, control bytes in a
# string), /proc/cpuinfo of two sockets of two cores with two threads, a
# NIC, PCIe devices (a card trained at x4 in an x16 slot, a bridge that is
# not listed) and a BMC device. Then a fleet of such machines, each with
# one thing changed as a rack's odd machine has it: compare names exactly
# those, with what differs and what the others have. The boot test
# tests/boot/syslog_guests.sh does the same with real guests' inventories.
. tests/lib.sh
need_commands python3
M=$T/machines
# machine NAME [CHANGE]: a recorded machine in $M/NAME; CHANGE (python on
# the SMBIOS description s, or shell after it is written, with $R) alters it
machine() {
	R=$M/$1
	mkdir -p "$R/proc" "$R/sys/class/dmi/id" "$R/dev"
	python3 - "$R/sys/firmware/dmi/tables" "$1" "${2:-}" <<'PY'
import json, subprocess, sys
out, name, change = sys.argv[1:4]
dimm = lambda slot, bank, mb=32768, **k: dict(dict(slot=slot, bank=bank, mb=mb, type=0x1A, speed=3200, configured=2933,
                                                  vendor="Samsung", part="M393A4K40DB3-CWE", serial="S" + slot), **k)
s = {"version": [3, 2],
     "bios": {"vendor": "American Megatrends Inc.", "version": "3.4", "date": "11/05/2021"},
     "system": {"vendor": "Supermicro", "product": "SYS-1029U-TN10RT", "version": "0123456789", "serial": name,
                "uuid": "33221100554477668899aabbccddeeff", "sku": "To be filled by O.E.M.", "family": "SMC X11"},
     "board": {"vendor": "Supermicro", "product": "X11DPU", "version": "1.10", "serial": "WM19" + name},
     "sockets": [{"socket": "CPU1", "vendor": "Intel(R) Corporation", "version": "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
                  "cores": 2, "threads": 4},
                 {"socket": "CPU2", "vendor": "Intel(R) Corporation", "version": "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
                  "cores": 2, "threads": 4}],
     "dimms": [dimm("P1-DIMMA1", "P0_Node0_Channel0_Dimm0"), dimm("P1-DIMMA2", "P0_Node0_Channel0_Dimm1", mb=0),
               dimm("P1-DIMMB1", "P0_Node0_Channel1_Dimm0"), dimm("P1-DIMMB2", "P0_Node0_Channel1_Dimm1", mb=0),
               dimm("P2-DIMMA1", "P1_Node1_Channel0_Dimm0"), dimm("P2-DIMMA2", "P1_Node1_Channel0_Dimm1", mb=0),
               dimm("P2-DIMMB1", "P1_Node1_Channel1_Dimm0"), dimm("P2-DIMMB2", "P1_Node1_Channel1_Dimm1", mb=0)]}
exec(change if change and not change.startswith("sh:") else "")
p = subprocess.run(["python3", "tests/smbios.py", out], input=json.dumps(s).encode())
sys.exit(p.returncode)
PY
	echo "$1" > "$R/sys/class/dmi/id/product_serial"
	: > "$R/proc/cpuinfo"
	for cpu in 0 1 2 3 4 5 6 7; do
		printf 'processor\t: %s\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\nmicrocode\t: 0x5003302\nphysical id\t: %s\ncore id\t\t: %s\n\n' \
			$cpu $((cpu / 4)) $((cpu % 4 / 2)) >> "$R/proc/cpuinfo"
	done
	printf 'MemTotal:       131621468 kB\nMemFree:        130000000 kB\n' > "$R/proc/meminfo"
	n=$R/sys/class/net/eno1
	mkdir -p "$n/device" "$R/sys/bus/pci/drivers/i40e"
	echo 3c:ec:ef:00:00:01 > "$n/address"; echo up > "$n/operstate"; echo 10000 > "$n/speed"
	ln -s "$R/sys/bus/pci/drivers/i40e" "$n/device/driver"
	mkdir -p "$R/sys/class/net/lo"	# no device behind it: not a NIC
	pci() { # address class vendor device driver speed width max-speed max-width
		d=$R/sys/bus/pci/devices/$1
		mkdir -p "$d" "$R/sys/bus/pci/drivers/$5"
		echo "0x$2" > "$d/class"; echo "0x$3" > "$d/vendor"; echo "0x$4" > "$d/device"
		ln -s "$R/sys/bus/pci/drivers/$5" "$d/driver"
		[ -z "${6:-}" ] || { echo "$6" > "$d/current_link_speed"; echo "$7" > "$d/current_link_width"
			echo "$8" > "$d/max_link_speed"; echo "$9" > "$d/max_link_width"; }
	}
	pci 0000:00:00.0 060000 8086 2020 none
	pci 0000:3a:00.0 060400 8086 2030 pcieport "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe" 16
	pci 0000:3b:00.0 020000 8086 1572 i40e "8.0 GT/s PCIe" 8 "8.0 GT/s PCIe" 8
	pci 0000:5e:00.0 010802 144d a808 nvme "8.0 GT/s PCIe" 4 "8.0 GT/s PCIe" 4
	pci 0000:af:00.0 030000 10de 1eb8 nvidia "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe" 16
	mkdir -p "$R/sys/bus/pci/slots/3" "$R/sys/bus/pci/slots/5"
	echo 0000:af:00 > "$R/sys/bus/pci/slots/3/address"
	echo 0000:5e:00 > "$R/sys/bus/pci/slots/5/address"
	: > "$R/dev/ipmi0"
	case "${2:-}" in sh:*) eval "${2#sh:}" ;; esac
}

# bad input: one line, exit 2, nothing written
mkdir -p "$T/out"
refuses "an unknown argument" "unknown argument 'now'" "$BB" inventory now
refuses "an unknown flag" "--jsn" "$BB" inventory --jsn
refuses "--output that is not a folder" "--output=$T/none: not a folder" "$BB" inventory --output="$T/none"
refuses "compare --inventory with --by" "--by groups disks" "$BB" compare --inventory --by=model "$T/out"
refuses "compare --inventory as csv" "--format=text or json" "$BB" compare --inventory --format=csv "$T/out"
refuses "compare --inventory over nothing" "no inventory.json" "$BB" compare --inventory "$T/out"
check "... and nothing was written" [ -z "$(ls -A "$T/out")" ]

machine m1
BOOTBENCH_SYSROOT=$M/m1 "$BB" inventory --json > "$T/m1.json"
check "the JSON is whole" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$T/m1.json"
has() { json "$T/m1.json" "$1"; }
check "system, board and BIOS from the SMBIOS table" has \
	"d['system']['vendor'] == 'Supermicro' and d['system']['product'] == 'SYS-1029U-TN10RT' and d['board']['product'] == 'X11DPU'
	 and d['bios'] == {'vendor': 'American Megatrends Inc.', 'version': '3.4', 'date': '11/05/2021'} and d['smbios_version'] == '3.2'"
check "... the UUID in SMBIOS 2.6+'s byte order (the kernel's product_uuid)" has "d['system']['uuid'] == '00112233-4455-6677-8899-aabbccddeeff'"
check "the CPUs: 2 sockets, 4 cores, 8 threads, the microcode" has \
	"d['cpus']['sockets'] == 2 and d['cpus']['cores'] == 4 and d['cpus']['threads'] == 8 and d['cpus']['microcode'] == '0x5003302'
	 and [s['socket'] for s in d['cpus']['slots']] == ['CPU1', 'CPU2'] and d['cpus']['slots'][0]['threads'] == 4"
check "every memory slot, the empty ones too, with size, type, speed, part and serial" has \
	"len(d['memory']['dimms']) == 8 and [m['size_bytes'] >> 30 for m in d['memory']['dimms']] == [32, 0, 32, 0, 32, 0, 32, 0]
	 and d['memory']['dimms'][0] == {'slot': 'P1-DIMMA1', 'bank': 'P0_Node0_Channel0_Dimm0', 'size_bytes': 32 << 30, 'type': 'DDR4',
	 'speed_mts': 3200, 'configured_mts': 2933, 'manufacturer': 'Samsung', 'part': 'M393A4K40DB3-CWE', 'serial': 'SP1-DIMMA1'}"
check "the NIC with its driver and link; lo is no NIC" has \
	"[(n['name'], n['driver'], n['speed_mbps']) for n in d['nics']] == [('eno1', 'i40e', 10000)]"
check "the PCI devices without the bridges, by address, with driver, slot and link" has \
	"[(p['address'], p['id'], p['driver'], p['slot']) for p in d['pci']] == [('0000:3b:00.0', '8086:1572', 'i40e', ''),
	 ('0000:5e:00.0', '144d:a808', 'nvme', '5'), ('0000:af:00.0', '10de:1eb8', 'nvidia', '3')]
	 and not any(p['downtrained'] for p in d['pci'])"
check "the BMC's device is there; a recorded tree's BMC is not asked" has \
	"d['bmc']['present'] and 'not asked' in d['bmc']['note'] and d['disks'] == [] and 'recorded' in d['disks_note']"
COLUMNS=80 BOOTBENCH_SYSROOT=$M/m1 "$BB" inventory > "$T/m1.txt"
check "the readable form fits 80 columns" sh -c "[ \$(awk '{ print length }' '$T/m1.txt' | sort -n | tail -n1) -le 80 ]"
check "... and lists the empty slots" sh -c "[ \$(grep -c ': empty$' '$T/m1.txt') = 4 ]"

# what vendors get wrong: an old DIMM structure, a huge one, bytes that are not text, a table cut short
machine odd "s['dimms'][1] = dimm('P1-DIMMA2', 'BANK 1', mb=16384, length=0x15)
s['dimms'][3] = dimm('P1-DIMMB2', 'BANK\x1b[2J 3', mb=65536, part='M3\x07X')
s['dimms'][5] = dimm('P2-DIMMA2', '', mb=8, kb=True)
s['tail'] = '11ff0100'"
BOOTBENCH_SYSROOT=$M/odd "$BB" inventory --json > "$T/odd.json"
check "a 2.3-length DIMM structure: size and type, no speed or part (the table has none)" json "$T/odd.json" \
	"(lambda m: m['size_bytes'] == 16 << 30 and m['type'] == 'DDR4' and m['speed_mts'] is None and m['configured_mts'] is None and m['part'] == '')(d['memory']['dimms'][1])"
check "64 GiB through the extended size field; control bytes shown as ?" json "$T/odd.json" \
	"(lambda m: m['size_bytes'] == 64 << 30 and m['bank'] == 'BANK?[2J 3' and m['part'] == 'M3?X')(d['memory']['dimms'][3])"
check "a size in KiB (bit 15)" json "$T/odd.json" "d['memory']['dimms'][5]['size_bytes'] == 8 << 20"
check "a structure that runs past the table's end ends the walk, what came before stays" json "$T/odd.json" \
	"len(d['memory']['dimms']) == 8 and d['system']['product'] == 'SYS-1029U-TN10RT'"
machine none "sh:rm -rf \"\$R/sys/firmware\""
BOOTBENCH_SYSROOT=$M/none "$BB" inventory --json > "$T/none.json"
check "no SMBIOS table: said in its place, the rest still taken" json "$T/none.json" \
	"'no SMBIOS table' in d['smbios_note'] and d['memory']['dimms'] == [] and d['cpus']['threads'] == 8"
# arm64 (issue 47): its /proc/cpuinfo names no model; the first CPU's implementer and part do
# (an Ampere Altra's Neoverse-N1 cores), and a pair the table lacks is said as its numbers
arm64_cpuinfo() { # PART
	: > "$R/proc/cpuinfo"
	for cpu in 0 1 2 3; do
		printf 'processor\t: %s\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: %s\nCPU revision\t: 1\n\n' \
			$cpu "$1" >> "$R/proc/cpuinfo"
	done
}
machine arm64 "sh:arm64_cpuinfo 0xd0c"
BOOTBENCH_SYSROOT=$M/arm64 "$BB" inventory --json > "$T/arm64.json"
check "arm64: the CPU named from its implementer and part, four threads" json "$T/arm64.json" \
	"d['cpus']['model'] == 'ARM Neoverse-N1' and d['cpus']['threads'] == 4"
BOOTBENCH_SYSROOT=$M/arm64 "$BB" sysinfo > "$T/arm64-sysinfo.txt"
check "... and by sysinfo the same" grep -q 'ARM Neoverse-N1' "$T/arm64-sysinfo.txt"
machine arm64odd "sh:arm64_cpuinfo 0xfff"
BOOTBENCH_SYSROOT=$M/arm64odd "$BB" inventory --json > "$T/arm64odd.json"
check "... a core the table lacks: its numbers, never 'unknown'" json "$T/arm64odd.json" \
	"d['cpus']['model'] == 'arm64 CPU (implementer 0x41, part 0xfff)'"
# a NIC's link in the kernel's words: a driver that keeps no operstate says
# "unknown" with its carrier up (a link, not "no link"); down is no link
machine nicunknown "sh:echo unknown > \$R/sys/class/net/eno1/operstate; echo 1 > \$R/sys/class/net/eno1/carrier; rm \$R/sys/class/net/eno1/speed"
BOOTBENCH_SYSROOT=$M/nicunknown "$BB" inventory --json > "$T/nicunknown.json"
check "a NIC in state unknown with its carrier up: carrier true, speed null" json "$T/nicunknown.json" \
	"[(n['state'], n['carrier'], n['speed_mbps']) for n in d['nics']] == [('unknown', True, None)]"
COLUMNS=200 BOOTBENCH_SYSROOT=$M/nicunknown "$BB" inventory > "$T/nicunknown.txt"
check "... read as a link whose speed is not reported, never 'no link'" sh -c \
	"grep -q 'link up, speed not reported' '$T/nicunknown.txt' && ! grep -q 'no link' '$T/nicunknown.txt'"
COLUMNS=200 BOOTBENCH_SYSROOT=$M/nicunknown "$BB" sysinfo > "$T/nicunknown-sysinfo.txt"
check "... and by sysinfo the same" grep -q 'eno1 .*link up, speed not reported' "$T/nicunknown-sysinfo.txt"
# nic STATE CARRIER SPEED: eno1's link in words, as sysinfo says it
nic() {
	machine nic "sh:echo $1 > \$R/sys/class/net/eno1/operstate; echo $2 > \$R/sys/class/net/eno1/carrier; echo $3 > \$R/sys/class/net/eno1/speed"
	COLUMNS=200 BOOTBENCH_SYSROOT=$M/nic "$BB" sysinfo | sed -n 's/^NIC: *eno1 [^,]*, //p'
}
check "a NIC that is down: no link" [ "$(nic down 0 -1)" = "no link" ]
check "... up by its state with its carrier off (the kernel's lag): no link, no speed" [ "$(nic up 0 10000)" = "no link" ]
check "... dormant (802.1X): not ready, whatever its speed" [ "$(nic dormant 1 10000)" = "link not ready (dormant)" ]
check "... up with its carrier: its speed" [ "$(nic up 1 10000)" = "10000 Mb/s" ]
machine dimmrated "for d in s['dimms']: d['configured'] = 0"
COLUMNS=200 BOOTBENCH_SYSROOT=$M/dimmrated "$BB" inventory > "$T/dimmrated.txt"
check "a DIMM's rated speed without its running one: said as rated, not as its speed" sh -c \
	"[ \$(grep -c ', rated 3200 MT/s, running speed not reported' '$T/dimmrated.txt') = 4 ]"
# DIMMs whose speeds SMBIOS gives as 0 (unknown): null and said so, never 0 MT/s
machine dimmspeed "for d in s['dimms']: d['speed'] = 0; d['configured'] = 0"
BOOTBENCH_SYSROOT=$M/dimmspeed "$BB" inventory --json > "$T/dimmspeed.json"
check "DIMM speeds SMBIOS gives as unknown: null" json "$T/dimmspeed.json" \
	"all(m['speed_mts'] is None and m['configured_mts'] is None for m in d['memory']['dimms'] if m['size_bytes'])"
COLUMNS=200 BOOTBENCH_SYSROOT=$M/dimmspeed "$BB" inventory > "$T/dimmspeed.txt"; grep -E "NIC:|slot" "$T/dimmspeed.txt"
check "... and 'speed not reported' in the readable form" sh -c \
	"[ \$(grep -c 'speed not reported' '$T/dimmspeed.txt') = 4 ] && ! grep -q ' 0 MT/s' '$T/dimmspeed.txt'"

# the fleet: eight machines of one model, two of another, one of a third
rm -rf "$M"
for m in r1 r2 r3 r4 r5 r6 r7 r8; do
	case $m in
	r3) change="s['dimms'][2]['mb'] = 0" ;;				# a DIMM gone
	r5) change="s['bios']['version'] = '3.1'" ;;			# an older BIOS
	r6) change="sh:echo 4 > \$R/sys/bus/pci/devices/0000:af:00.0/current_link_width" ;;	# a card trained at x4
	r7) change="sh:sed -i 's/0x5003302/0x5003006/' \$R/proc/cpuinfo" ;;	# other microcode
	r8) change="for d in s['dimms']: d['configured'] = 2400" ;;	# every DIMM held to 2400 MT/s (twins' 2933)
	*) change="" ;;
	esac
	machine $m "$change"
	mkdir -p "$T/share/$m/run-1"
	BOOTBENCH_SYSROOT=$M/$m "$BB" inventory --output="$T/share/$m/run-1" > /dev/null
done
for m in d1 d2; do
	machine $m "s['system']['product'] = 'SYS-2029'$([ $m = d2 ] && echo "; s['bios']['version'] = '2.0'; s['dimms'][0]['configured'] = 2400")"
	mkdir -p "$T/share/$m" && BOOTBENCH_SYSROOT=$M/$m "$BB" inventory --output="$T/share/$m" > /dev/null
done
machine solo "s['system']['vendor'] = 'Dell Inc.'"
mkdir -p "$T/share/solo" && BOOTBENCH_SYSROOT=$M/solo "$BB" inventory --output="$T/share/solo" > /dev/null
"$BB" compare --inventory "$T/share" > "$T/fleet.txt" 2>&1
rc=$?
cat "$T/fleet.txt"
check "compare --inventory: 11 machines, 3 models, exit 1" sh -c \
	"[ $rc = 1 ] && grep -q '^bootbench compare --inventory: 11 machine(s) from 11 inventory file(s), 3 system model(s)$' '$T/fleet.txt'"
check "... the model of eight: five differ, the other three alike" sh -c \
	"grep -q '^Supermicro SYS-1029U-TN10RT: 8 machine(s), 5 differ$' '$T/fleet.txt' && grep -q '^  alike: r1 r2 r4$' '$T/fleet.txt'"
"$BB" compare --inventory --format=json "$T/share" > "$T/fleet.json"
differs() { # machine python-list-of-(part, value, majority)
	json "$T/fleet.json" "sorted((p['part'], p['value'], p['majority']) for m in d['models'] for x in m['differ']
		if x['machine'] == '$1' for p in x['parts']) == sorted($2)"
}
check "r3: the missing DIMM, and the memory it leaves" differs r3 \
	"[('memory', '96.0GiB in 3 DIMMs', '128GiB in 4 DIMMs'), ('slot P1-DIMMB1 P0_Node0_Channel1_Dimm0', 'empty', '32.0GiB DDR4 3200 MT/s, running at 2933 MT/s, Samsung M393A4K40DB3-CWE')]"
check "r5: the BIOS" differs r5 "[('bios', 'American Megatrends Inc. 3.4 11/05/2021'.replace('3.4', '3.1'), 'American Megatrends Inc. 3.4 11/05/2021')]"
check "r6: the card trained at x4 where its twins are x16" differs r6 \
	"[('pci 0000:af:00.0', '10de:1eb8 nvidia, x4 8.0 GT/s PCIe (can x16 8.0 GT/s PCIe)', '10de:1eb8 nvidia, x16 8.0 GT/s PCIe (can x16 8.0 GT/s PCIe)')]"
check "r7: the microcode" differs r7 "[('cpu microcode', '0x5003006', '0x5003302')]"
# DIMMs configured below their twins' speed: each slot named, with both speeds
check "r8: every DIMM running at 2400 MT/s where its twins' run at 2933" differs r8 \
	"[('slot %s' % s, '32.0GiB DDR4 3200 MT/s, running at 2400 MT/s, Samsung M393A4K40DB3-CWE',
	   '32.0GiB DDR4 3200 MT/s, running at 2933 MT/s, Samsung M393A4K40DB3-CWE')
	  for s in ('P1-DIMMA1 P0_Node0_Channel0_Dimm0', 'P1-DIMMB1 P0_Node0_Channel1_Dimm0',
	            'P2-DIMMA1 P1_Node1_Channel0_Dimm0', 'P2-DIMMB1 P1_Node1_Channel1_Dimm0')]"
check "... no other machine is named" json "$T/fleet.json" \
	"sorted(x['machine'] for m in d['models'] for x in m['differ']) == ['d1', 'd2', 'r3', 'r5', 'r6', 'r7', 'r8']"
# below their rated speed (3200), whatever the twins do: every machine here,
# the lone machine of its model too; listed, not counted as differing
check "DIMMs below their rated speed: the machines that run alike on one line, r8 on its own" sh -c \
	"grep -q '^    r1 r2 r4 r5 r6 r7: all 4 DIMMs at 2933 MT/s, rated 3200 MT/s$' '$T/fleet.txt' &&
	 grep -q '^    r8: all 4 DIMMs at 2400 MT/s, rated 3200 MT/s$' '$T/fleet.txt' &&
	 grep -q '^    r3: all 3 DIMMs at 2933 MT/s, rated 3200 MT/s$' '$T/fleet.txt' &&
	 grep -q '^    d2: slot P1-DIMMA1 P0_Node0_Channel0_Dimm0 at 2400 MT/s, rated 3200 MT/s; slot P1-DIMMB1 P0_Node0_Channel1_Dimm0 at 2933 MT/s' '$T/fleet.txt'"
check "... in the JSON, each DIMM with both speeds" json "$T/fleet.json" \
	"[(x['slot'], x['running_mts'], x['rated_mts']) for m in d['models'] for x in m['below_rated_speed'] if x['machine'] == 'r8'] ==
	 [('slot P1-DIMMA1 P0_Node0_Channel0_Dimm0', 2400, 3200), ('slot P1-DIMMB1 P0_Node0_Channel1_Dimm0', 2400, 3200),
	  ('slot P2-DIMMA1 P1_Node1_Channel0_Dimm0', 2400, 3200), ('slot P2-DIMMB1 P1_Node1_Channel1_Dimm0', 2400, 3200)]"
"$BB" compare --inventory "$T/share/solo" > "$T/solo.txt" 2>&1
rc=$?
check "a machine alone, its DIMMs below their rating: named, exit 0 (it differs from no twin)" sh -c \
	"[ $rc = 0 ] && grep -q '^    solo: all 4 DIMMs at 2933 MT/s, rated 3200 MT/s$' '$T/solo.txt'"
check "the model of two that differ: both named, no majority, too few to say which" sh -c \
	"grep -q '^Supermicro SYS-2029: 2 machine(s), 2 differ (too few to say which is the odd one out)$' '$T/fleet.txt' &&
	 grep -q '^    bios: .* (no majority)$' '$T/fleet.txt'"
check "the model of one: alike with itself" grep -q '^Dell Inc. SYS-1029U-TN10RT: 1 machine(s), 0 differ$' "$T/fleet.txt"
check "serials, MACs and UUIDs are not compared (every machine's differ)" json "$T/fleet.json" \
	"not any(w in p['part'] for m in d['models'] for x in m['differ'] for p in x['parts'] for w in ('serial', 'uuid', 'mac'))"

# a machine's second run, newer, with its DIMM back: it counts, the older is set aside
mkdir -p "$T/share/r3/run-2"
python3 - "$T/share/r1/run-1/inventory.json" "$T/share/r3/run-2/inventory.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['machine'], d['taken'] = 'r3', '2999-01-01T00:00:00Z'
json.dump(d, open(sys.argv[2], 'w'))
PY
"$BB" compare --inventory --format=json "$T/share" > "$T/again.json"
check "a machine read twice counts once, its newest inventory" json "$T/again.json" \
	"d['machines'] == 11 and d['files'] == 12 and 'r3' not in [x['machine'] for m in d['models'] for x in m['differ']]"
# bootbench compare of benchmark results reads past inventory.json
"$BB" compare "$T/share" > "$T/plain.txt" 2>&1
check "plain compare does not call an inventory.json a bad result" grep -q '(0 file(s) unreadable)' "$T/plain.txt"
# what a share may hold: a broken file, a link, an inventory of a newer format
printf '{"format": 1, "machine": "x", "pci": [' > "$T/share/solo/broken.json"
mkdir -p "$T/share/bad" "$T/elsewhere"
printf '{"format": 1, "machine": "cut", "pci": [' > "$T/share/bad/inventory.json"
cp "$T/share/r1/run-1/inventory.json" "$T/elsewhere/inventory.json"
ln -s "$T/elsewhere" "$T/share/link"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['format'] = 99; d['machine'] = 'future'; json.dump(d, open(sys.argv[2], 'w'))" \
	"$T/share/r1/run-1/inventory.json" "$T/share/solo/future-inventory.json"
mkdir -p "$T/share/future" && mv "$T/share/solo/future-inventory.json" "$T/share/future/inventory.json"
"$BB" compare --inventory --format=json "$T/share" > "$T/shared.json" 2> "$T/shared.err"
check "a cut-short inventory and a newer format are each said in a line, counted; the link is not followed" sh -c \
	"grep -q 'bad/inventory.json: not JSON, or cut short' '$T/shared.err' && grep -q 'future/inventory.json: not an inventory bootbench reads (format 99)' '$T/shared.err' &&
	 [ \$(wc -l < '$T/shared.err') = 2 ]"
check "... the others still compared" json "$T/shared.json" "d['machines'] == 11 and d['unreadable'] == 2"
finish
