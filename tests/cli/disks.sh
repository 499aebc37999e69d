# SPDX-License-Identifier: MIT
# bootbench disks and sysinfo on the build host: a loop device shows up with
# its size, what is on it and who uses it; the boot/results media named in
# the media file are flagged and get a reason to refuse writes; bad input
# exits 2. sysinfo agrees with the kernel on CPUs and memory.
. tests/lib.sh
loopdev dev "$T/disk.img" 64M
name=${dev#/dev/}
"$BB" disks --json > "$T/d.json"
check "disks --json is JSON and lists the loop device" json "$T/d.json" \
	"any(x['name'] == '$name' and x['size'] == 64 << 20 and x['transport'] == 'loop' for x in d['disks'])"
"$BB" disks "$dev" > "$T/d.txt"
check "a blank device says so, and that it may be written" \
	sh -c "grep -q '^$name .* allowed\$' '$T/d.txt' && grep -qx '  contents: blank' '$T/d.txt'"
# Issue 31: the table fits 80 columns, long text folded at words under its
# disk (a media list long enough to need it), or $COLUMNS (the menu's box)
printf 'boot %s\nresults %s\n' "$dev" "$dev" > "$T/media"
for w in 80 73 50; do
	BOOTBENCH_MEDIA_FILE="$T/media" COLUMNS=$w "$BB" disks > "$T/d$w.txt"
done
check "the table fits 80 columns, and 73 with COLUMNS=73" \
	sh -c "! awk 'length > 80' '$T/d80.txt' | grep -q . && ! awk 'length > 73' '$T/d73.txt' | grep -q ."
check "with COLUMNS=50 the reasons fold at words, under their label" \
	sh -c "grep -q '^  refused:  it is the boot medium, it is the\$' '$T/d50.txt' && grep -q '^            results medium\$' '$T/d50.txt'"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
"$BB" disks --json "$dev" > "$T/d.json"
check "the filesystem on it is named" json "$T/d.json" "'ext2/3/4' in d['disks'][0]['content']"
mkdir -p "$T/mnt"
mount "$dev" "$T/mnt"
check "the device mounted: exit 0" [ $? = 0 ]
"$BB" disks --json "$dev" > "$T/d.json"
umount "$T/mnt"
check "a mounted device is flagged, with a reason to refuse writes" json "$T/d.json" \
	"'$T/mnt' in d['disks'][0]['mounted'] and 'mounted' in d['disks'][0]['refuse_writes']"
printf 'boot %s\nresults %s\n' "$dev" "$dev" > "$T/media"
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" disks --json "$dev" > "$T/d.json"
check "the boot and results medium are flagged" json "$T/d.json" \
	"d['disks'][0]['boot_medium'] and d['disks'][0]['results_medium'] and 'boot medium' in d['disks'][0]['refuse_writes']"
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" disks "$dev" > "$T/d.txt"
check "the table says why writes are refused" grep -q 'it is the boot medium, it is the results medium' "$T/d.txt"
# Issue 30.7: the media are remembered by identity, not by name. A stick
# that re-enumerates leaves its old name to another disk: the line naming
# $dev (the name it had) with the stick's identity still keeps the stick
# ($stick, its new name) out, and not $dev.
loopdev stick "$T/stick.img" 32M
printf 'results %s %s\n' "$dev" "$("$BB" disks --identity="$stick")" > "$T/media"
check "--identity of a loop device names its file, not its name" \
	sh -c "'$BB' disks --identity='$stick' | grep -q 'file=[0-9a-f]*:[0-9]*' && ! '$BB' disks --identity='$stick' | grep -q '${stick#/dev/}'"
check "disks --media: the stick under its new name, not the disk that took its old one" \
	[ "$(BOOTBENCH_MEDIA_FILE="$T/media" "$BB" disks --media)" = "$stick" ]
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" run --name=w --filename="$stick" --rw=write --bs=4k --size=64k --destroy="$stick" \
	> "$T/out" 2> "$T/err"
rc=$?
check "a write to the re-enumerated stick is refused, even with consent" \
	sh -c "[ $rc = 2 ] && grep -q 'it is the results medium' '$T/err'"
BOOTBENCH_MEDIA_FILE="$T/media" "$BB" run --name=w --filename="$dev" --rw=write --bs=4k --size=64k --destroy="$dev" \
	> "$T/out" 2> "$T/err"
rc=$?
[ $rc = 0 ] || head -n 3 "$T/err"
check "... and the disk that now has its old name is written with consent" [ $rc = 0 ]
"$BB" disks /dev/bootbench-nonexistent > "$T/out" 2> "$T/err"
check "an unknown device exits 2" [ $? = 2 ]
check "an unknown device is named in one line" sh -c "[ \$(wc -l < '$T/err') = 1 ] && grep -q 'no such disk: /dev/bootbench-nonexistent' '$T/err'"
"$BB" disks --colour 2> "$T/err"
check "an unknown option exits 2" [ $? = 2 ]
"$BB" sysinfo --json > "$T/s.json"
check "sysinfo --json counts the CPUs the kernel has" json "$T/s.json" "d['cpu']['cpus'] == $(nproc)"
mem=$(awk '/^MemTotal/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
check "sysinfo --json has the memory size" json "$T/s.json" "d['memory_bytes'] == $mem"
check "sysinfo --json names the boot mode" json "$T/s.json" "d['firmware']['boot_mode'] in ('BIOS', 'UEFI')"
check "sysinfo --json: a NIC's speed a number over 0, or null where none is given, never -1 or 0 (issue 48)" json "$T/s.json" \
	"all(n['speed_mbps'] is None or n['speed_mbps'] > 0 for n in d['nics'])"
COLUMNS=300 "$BB" sysinfo > "$T/s.txt"
up=$(python3 -c "import json, sys; print(' '.join(n['name'] for n in json.load(open(sys.argv[1]))['nics'] if n['state'] == 'up' or n['carrier']))" "$T/s.json")
check "... and a NIC that is up (${up:-none here}) never reads 'no link'" sh -c \
	"for n in $up; do grep -E \"^NIC: +\$n \" '$T/s.txt' | grep -q 'no link' && exit 1; done; exit 0"
check "sysinfo's table starts with the CPU" sh -c "'$BB' sysinfo | head -n1 | grep -q '^CPU: '"
finish
