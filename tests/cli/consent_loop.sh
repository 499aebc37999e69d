# SPDX-License-Identifier: MIT
# consent_loop.sh - the consent gate and loop devices (issue 43 item 10). A
# loop device opens what is behind it as a plain file: it shows in no
# holders/ folder and takes no exclusive claim, so a disk behind one looked
# unused and was erased under the loop device's user. The gate
# (safety/consent.c) asks each loop device what is behind it and refuses:
#   - a disk that backs a loop device (B over A): erase and a benchmark that
#     writes it, one line, exit 2, nothing written; allowed once B is gone;
#   - a disk one of whose partitions backs a loop device, and a partition
#     whose whole disk backs one;
#   - a disk whose filesystem holds a loop device's backing file, though
#     lazily unmounted (umount -l: in no mount table, still held).
. tests/lib.sh
need_commands losetup mkfs.ext4 sfdisk sha256sum
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
cd "$T" || exit 1
# loop DEVICE-VAR BACKING [losetup options]: a loop device over BACKING (a
# file or a device), detached on exit before those it was set up over
loop() {
	_var=$1 _over=$2; shift 2
	_l=$(losetup -f --show "$@" "$_over") || { bad "a loop device over $_over"; finish; }
	LOOPS="$_l $LOOPS"
	eval "$_var=\$_l"
}
unloop() { # DEVICE: detached now, and no longer cleaned up
	losetup -d "$1"
	LOOPS=$(echo "$LOOPS" | tr ' ' '\n' | grep -vxF "$1" | tr '\n' ' ')
}
name() { echo "${1#/dev/}"; }

# 1. A disk that backs a loop device
head -c 16M /dev/urandom > a.img
loop A a.img
loop B "$A"
sum=$(sha256sum < a.img)
refuses "erase of a disk behind a loop device: refused, the loop device named" "$(name "$B") is backed by it" \
	"$BB" erase --destroy="$A" --output=x "$A"
refuses "... and a benchmark that writes it" "$(name "$B") is backed by it" \
	"$BB" run --name=w --filename="$A" --rw=write --bs=1M --size=1M --destroy="$A"
check "... nothing written to it" [ "$(sha256sum < a.img)" = "$sum" ]
check "... no certificate written" [ ! -e x ]
unloop "$B"
"$BB" erase --destroy="$A" --output=certs-a --verify=sample "$A" > a.out 2>&1
rc=$?
sed 's/^/    /' a.out
check "once the loop device is gone, the disk is erased" sh -c "[ $rc = 0 ] && cmp -s a.img /dev/zero -n 16777216"

# 2. A partition of the disk behind a loop device; the disk behind one, for its partition
head -c 16M /dev/urandom > e.img
echo 'start=2048, type=83' | sfdisk -q e.img || { bad "a partition table on e.img"; finish; }
loop E e.img -P
i=0; while [ ! -b "${E}p1" ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
if [ -b "${E}p1" ]; then
	loop F "${E}p1"
	sum=$(sha256sum < e.img)
	refuses "erase of a disk whose partition backs a loop device: refused" \
		"$(name "$F") is backed by its partition $(name "$E")p1" "$BB" erase --destroy="$E" --output=x "$E"
	unloop "$F"
	loop G "$E"
	refuses "a benchmark on a partition of a disk behind a loop device: refused" \
		"$(name "$G") is backed by $(name "$E"), the disk it is on" \
		"$BB" run --name=w --filename="${E}p1" --rw=write --bs=1M --size=1M --destroy="${E}p1"
	check "... nothing written to either" [ "$(sha256sum < e.img)" = "$sum" ]
	unloop "$G"
else
	echo "note: this kernel reads no partition table: the partition cases are not checked here"
fi

# 3. A loop device's backing file on the disk's filesystem, lazily unmounted
head -c 32M /dev/urandom > c.img
loop C c.img
mkfs.ext4 -q "$C" && mkdir -p mnt && mount "$C" mnt || { bad "an ext4 filesystem on $C mounted"; finish; }
head -c 4M /dev/urandom > mnt/f.img
loop D "$T/mnt/f.img"
umount -l mnt
check "the filesystem is in no mount table now" sh -c "! grep -q '^$C ' /proc/mounts"
sum=$(sha256sum < c.img)
# (the kernel names a file of a detached filesystem from that filesystem's root)
refuses "erase of a disk holding a loop device's backing file: refused" \
	"$(name "$D")'s backing file /f.img lives on it" "$BB" erase --destroy="$C" --output=x "$C"
check "... nothing written to it" [ "$(sha256sum < c.img)" = "$sum" ]
unloop "$D"
# the filesystem ends once its last file is let go, which the kernel may finish a moment later
i=0
until "$BB" erase --destroy="$C" --output=certs-c --verify=sample "$C" > c.out 2>&1 || [ $i -ge 50 ]; do
	sleep 0.1; i=$((i + 1))
done
sed 's/^/    /' c.out
check "once the loop device is gone, the disk is erased" cmp -s c.img /dev/zero -n 33554432
finish
