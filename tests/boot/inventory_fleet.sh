# SPDX-License-Identifier: MIT
# Boot test (issue 32): a rack's inventories from real guest boots, set
# side by side. Three guests of one "model" (QEMU's SMBIOS given a vendor,
# product and BIOS version, as a vendor's firmware has them), booted at once
# with bootbench.run=inventory (nothing else is run) and their results on
# the console: two twins (1 GiB, two disks, a virtio NIC) and one that
# differs in what a rack's odd machine does (less memory, one disk, another
# NIC, another BIOS). bootbench compare --inventory on this machine names
# exactly that one, with each part that differs and what its twins have;
# the twins alone are alike (exit 0). Then a second run of a twin with one
# part changed is newer and counts, the older one set aside.
. tests/bootlib.sh
need_artifacts
need_commands python3
# guest NAME MEM DISKS NIC BIOS: boots in the background, its console in $T/NAME.log
guest() {
	disks=""
	for i in $(seq 1 "$3"); do truncate -s 64M "$T/$1-d$i.img"; disks="$disks --disk virtio:$T/$1-d$i.img"; done
	scripts/qemu.sh --timeout "$BOOT_LIMIT" --serial "$T/$1.log" --mem "$2" --smp 2 --nic "$4" $disks \
		--smbios "type=0,vendor=Acme BIOS,version=$5" --smbios "type=1,manufacturer=Acme,product=R100,serial=$1" \
		--kernel "$OUT/vmlinuz" --initrd "$OUT/initramfs.img" --append "console=ttyS0,115200 bootbench.boot=net $ASLR_OFF \
bootbench.id=$BOOT_ID bootbench.run=inventory bootbench.save=console bootbench.after=poweroff" > /dev/null 2>&1 &
}
# inventory_of NAME: its inventory.json cut from its console to $T/fleet/NAME/
inventory_of() {
	mkdir -p "$T/fleet/$1"
	tr -d '\r' < "$T/$1.log" | sed -n '/^----- bootbench result inventory.json begin -----$/,/^----- bootbench result inventory.json end -----$/p' |
		sed '1d;$d' > "$T/fleet/$1/inventory.json"
	[ -s "$T/fleet/$1/inventory.json" ]
}
guest rack-a 1024 2 virtio-net-pci 2.1
guest rack-b 1024 2 virtio-net-pci 2.1
guest rack-c 768 1 e1000 2.0
wait
for g in rack-a rack-b rack-c; do
	check "$g: its inventory.json is on the console" inventory_of $g
done
check "rack-a's inventory: the SMBIOS given (Acme R100, serial rack-a, BIOS 2.1), one DIMM of 1 GiB, two disks, virtio_net" \
	json "$T/fleet/rack-a/inventory.json" "d['system']['vendor'] == 'Acme' and d['system']['product'] == 'R100' and
		d['system']['serial'] == 'rack-a' and d['machine'] == 'rack-a' and d['bios']['version'] == '2.1' and
		[m['size_bytes'] for m in d['memory']['dimms'] if m['size_bytes']] == [1 << 30] and
		len(d['disks']) == 2 and d['nics'][0]['driver'] == 'virtio_net' and d['cpus']['threads'] == 2"
"$BB" compare --inventory "$T/fleet" > "$T/compare.txt" 2>&1
rc=$?
cat "$T/compare.txt"
check "compare --inventory: one model, three machines, exit 1 (one differs)" sh -c \
	"[ $rc = 1 ] && grep -q '^Acme R100: 3 machine(s), 1 differ\$' '$T/compare.txt'"
check "... the twins are alike" grep -q '^  alike: rack-a rack-b$' "$T/compare.txt"
check "... rack-c is named" grep -q '^  rack-c (' "$T/compare.txt"
"$BB" compare --inventory --format=json "$T/fleet" > "$T/compare.json"
parts() { json "$T/compare.json" "sorted(p['part'] for m in d['models'] for x in m['differ'] if x['machine'] == 'rack-c' for p in x['parts']) == $1"; }
check "... with exactly what differs: BIOS, memory and its slot, the NIC and its PCI device, the disk count and the second disk's PCI device" \
	parts "['bios', 'disk unknown model (64.0MiB, virtio)', 'memory', 'nic eth0', 'pci 0000:00:03.0', 'pci 0000:00:06.0', 'slot DIMM 0']"
check "... each with the twins' value: BIOS 2.1, virtio_net, 2 disks" sh -c \
	"grep -q 'bios: Acme BIOS 2.0 .*(the others: Acme BIOS 2.1' '$T/compare.txt' &&
	 grep -q 'nic eth0: e1000, .*(the others: virtio_net,' '$T/compare.txt' &&
	 grep -q 'disk .*: 1 x firmware .* (the others: 2 x firmware' '$T/compare.txt'"
mkdir -p "$T/twins" && cp -r "$T/fleet/rack-a" "$T/fleet/rack-b" "$T/twins/"
"$BB" compare --inventory "$T/twins" > "$T/twins.txt" 2>&1
check "the twins alone: alike, exit 0" sh -c "[ $? = 0 ] && grep -q '^Acme R100: 2 machine(s), 0 differ\$' '$T/twins.txt'"
# rack-b again, later, with its second disk gone: the newer one counts
mkdir -p "$T/fleet/rack-b-later"
python3 - "$T/fleet/rack-b/inventory.json" "$T/fleet/rack-b-later/inventory.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['taken'] = '2999-01-01T00:00:00Z'
d['disks'] = d['disks'][:1]
json.dump(d, open(sys.argv[2], 'w'))
PY
"$BB" compare --inventory "$T/fleet" > "$T/later.txt" 2>&1
check "a machine's newer inventory counts, the older set aside: rack-a stands alone on the disks" sh -c \
	"grep -q 'older ones of a machine left out' '$T/later.txt' && grep -q '^  rack-a (' '$T/later.txt' && grep -q 'Acme R100: 3 machine(s)' '$T/later.txt'"
finish
