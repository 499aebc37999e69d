# SPDX-License-Identifier: MIT
# blockdev.sh - jobs on a loop device: reads need no consent; writes need the
# device named in --destroy; a mounted device is refused even with consent;
# the refusal names what is on the disk; with consent the data is written; a
# job on a file in a filesystem leaves it free to unmount when bootbench ends.
. tests/lib.sh
cd "$T" || exit 1
loopdev dev "$T/disk.img" 32M

"$BB" run --name=r --filename="$dev" --rw=randread --direct=1 --size=8m --iodepth=8 \
	--output-format=json --output=r.json 2>err.txt
check "direct read of a device without consent" json r.json "d['jobs'][0]['read']['io_bytes']==8<<20"
check "device identity under our key" json r.json "d['bootbench']['jobs'][0]['targets'][0]['type']=='block' and d['bootbench']['jobs'][0]['targets'][0]['size']==32<<20"
check "disk_util names the loop device" json r.json "d['disk_util'][0]['name']=='$(basename "$dev")' and d['disk_util'][0]['read_ios']>0"

mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || skip "mkfs.ext4 unavailable"
sum=$(sha256sum "$dev" | cut -d' ' -f1)
"$BB" run --name=w --filename="$dev" --rw=write --size=1m >out.txt 2>err.txt
rc=$?
check "write without consent: exit 2" [ $rc = 2 ]
check "refusal names the filesystem" grep -q "ext2/3/4 filesystem" err.txt
check "refusal leaves the device unchanged" [ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$sum" ]

mkdir -p mnt "mnt 2"
if mount -o ro,noload "$dev" "mnt 2" 2>/dev/null; then
	"$BB" run --name=w --filename="$dev" --rw=write --size=1m --destroy="$dev" >out.txt 2>err.txt
	rc=$?
	check "mounted device refused even with consent" eval '[ $rc = 2 ] && grep -q "in use" err.txt'
	# /proc/mounts writes the space as \040: the refusal names the real path
	check "the refusal says where it is mounted" grep -q "mounted on $T/mnt 2)" err.txt
	umount "mnt 2"
	check "mounted refusal left the device unchanged" [ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$sum" ]
	# a job on a file in the filesystem lets go of it when bootbench ends, so
	# `bootbench raid --fs` can take the filesystem down at once
	mount "$dev" mnt
	"$BB" run --name=f --filename=mnt/f.dat --rw=randwrite --size=4m --iodepth=8 >out.txt 2>err.txt
	check "right after a job on a file in it, the filesystem unmounts" umount mnt
	mountpoint -q mnt && { sleep 1; umount mnt; }
else
	echo "note: cannot mount ext4 here; the mounted case is not checked"
fi

sum=$(sha256sum "$dev" | cut -d' ' -f1)
tail_sum=$(dd if="$dev" bs=1M skip=4 status=none | sha256sum)
"$BB" run --name=w --filename="$dev" --rw=randwrite --direct=1 --bs=4k --size=4m --iodepth=16 \
	--destroy="$dev" --output-format=json --output=w.json 2>err.txt
check "write with consent exits 0" [ $? = 0 ]
check "all blocks written once" json w.json "d['jobs'][0]['write']['total_ios']==1024"
check "data on the device changed" [ "$(sha256sum "$dev" | cut -d' ' -f1)" != "$sum" ]
check "the first 4 MiB no longer hold zeros anywhere" python3 -c "
b=open('$dev','rb').read(4<<20); z=bytes(4096)
assert all(b[i:i+4096]!=z for i in range(0,len(b),4096))"
check "bytes after the range untouched" [ "$(dd if="$dev" bs=1M skip=4 status=none | sha256sum)" = "$tail_sum" ]

"$BB" run --name=t --filename="$dev" --rw=trim --bs=1m --size=2m --destroy="$dev" \
	--output-format=json --output=t.json 2>err.txt
check "trim with consent" json t.json "d['jobs'][0]['trim']['total_ios']==2"
finish
