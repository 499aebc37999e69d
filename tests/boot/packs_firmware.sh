# SPDX-License-Identifier: MIT
# Boot test (issue 21): the image's parts in a guest.
#   1. The stick loads the base and every pack: each marks itself loaded;
#      the kernel's own firmware loader (test_firmware, the kernel's test of
#      request_firmware) finds bnx2x's, ice's DDP package and a Realtek
#      file in the firmware pack, byte for byte as Debian ships them, and
#      a name no package has is refused; bnx2x and qede (firmware pack) load
#      with their dependencies.
#      A btrfs is made on a virtio disk (mkfs.btrfs: the rescue pack).
#      Each part's squashfs image is mounted (its loop device is not
#      offered as a disk). The boot's summary line says where its time went.
#   2. The kernel with the base alone (a PXE rack's entry without packs):
#      the menu comes up; bootbench fsck of that btrfs names the pack that
#      has btrfs-progs, not only "No such file or directory"; raid --zfs
#      names the ZFS pack; good ssh keys given (bootbench.ssh_key over https,
#      the test's nginx, verified against bootbench.ca): no ssh server, the
#      line naming the pack dropbear is in (hooks_refused.sh's fourth boot
#      was this, issue 49).
# timeout: 420
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands tmux python3 nginx openssl ssh-keygen
P=out/pkgs
fw_sum() { sha256sum "$(ls "$P"/firmware-*/lib/firmware/"$1" "$P"/firmware-*/usr/lib/firmware/"$1" 2>/dev/null | head -n1)" | cut -c1-64; }
BNX=bnx2x/bnx2x-e2-7.13.21.0.fw ICE=intel/ice/ddp/ice.pkg RTL=rtl_nic/rtl8168h-2.fw
for f in $BNX $ICE $RTL; do
	[ -n "$(fw_sum $f)" ] || { echo "out/pkgs has no $f: run 'make image'"; exit 1; }
done
cp "$OUT/bootbench-usb.img" "$T/stick.img"
truncate -s 256M "$T/btrfs.img" "$T/z.img"
console_boot 160 50 "--fw bios --usb '$T/stick.img' --disk virtio:'$T/btrfs.img'"
step "the stick boots to the menu" "Esc goes back" 240
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30
type_line "clear; echo PACKS=\$(ls /etc/bootbench/packs.d | wc -l) \$(ls /etc/bootbench/packs.d | tr '\n' ,)"
step_result "every pack is loaded: base, burnin, firmware, rescue, zfs" PACKS "PACKS=5 base,burnin,firmware,rescue,zfs," 30
type_line "clear; echo PARTS=\$(grep -c ' /lib/bootbench/parts/[a-z]* squashfs ro' /proc/mounts) LOOPS=\$(bootbench disks | grep -c '^loop')"
step_result "each part's squashfs image is mounted read-only, and its loop device is no disk of bootbench's" PARTS "PARTS=5 LOOPS=0" 30
type_line "clear; echo SUMMARY=\$(grep -c 'boot finished in [0-9.]* s: kernel [0-9.]* s (unpack [0-9.]* s), slowest steps [0-9][0-9]-[a-z-]*\.sh [0-9.]* s, [0-9][0-9]-' /run/bootbench/console.log)"
step_result "the boot's summary names the kernel's part, its unpack and the two slowest steps" SUMMARY "SUMMARY=1" 30
# request_firmware through the test module: the file the kernel got, read back
fw_line() { # var name
	# the marker last (step_result checks the screen once it shows): the serial line draws the
	# sum after it otherwise, and a loaded host's capture caught it half drawn
	echo "clear; modprobe test_firmware; T=/sys/devices/virtual/misc/test_firmware; printf %s $2 > \$T/trigger_request; RC=\$?; echo \$(sha256sum < /dev/test_firmware | cut -c1-64) $1=\$RC"
}
type_line "$(fw_line BNX $BNX)"
step_result "the kernel loads bnx2x's firmware from the firmware pack, byte for byte" BNX "$(fw_sum $BNX) BNX=0" 60
type_line "$(fw_line ICE $ICE)"
step_result "... ice's DDP package" ICE "$(fw_sum $ICE) ICE=0" 60
type_line "$(fw_line RTL $RTL)"
step_result "... a Realtek NIC's" RTL "$(fw_sum $RTL) RTL=0" 60
type_line "clear; printf %s no/such-firmware.bin > /sys/devices/virtual/misc/test_firmware/trigger_request; echo NOFW=\$?"
step_result "a firmware name no pack has is refused" NOFW "NOFW=1" 60
type_line "clear; modprobe bnx2x && modprobe qede && echo MODS=\$(grep -c -e '^bnx2x ' -e '^qede ' -e '^qed ' -e '^mdio ' /proc/modules)"
step_result "bnx2x and qede load from the firmware pack, with qed and mdio" MODS "MODS=4" 60
type_line "clear; mkfs.btrfs -q -f /dev/vda > /tmp/mkfs.log 2>&1; echo MKFS=\$?"
step_result "mkfs.btrfs (the rescue pack) makes a btrfs on the virtio disk" MKFS "MKFS=0" 60
type_line "exit"
menu_power_off

# 2. The base alone (a new console once the first one's server is gone)
$TM kill-server 2>/dev/null
i=0; while $TM ls >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
sleep 1
# good keys over https, as a rack gives them: the base alone has no dropbear
start_webdav || { bad "nginx starts"; finish; }
mkdir -p "$T/dav/pub" && cp "$T/ca/ca.crt" "$T/www/ca.crt"
ssh-keygen -q -t ed25519 -N '' -C fine -f "$T/fine" && cp "$T/fine.pub" "$T/dav/pub/goodkeys"
console_boot 160 50 "--kernel '$OUT/vmlinuz' --initrd '$OUT/initramfs.img' --disk virtio:'$T/btrfs.img' --disk virtio:'$T/z.img' --append 'console=ttyS0,115200 bootbench.boot=net $ASLR_OFF bootbench.id=$BOOT_ID bootbench.ssh_key=https://10.0.2.2:$DAV_PORT/pub/goodkeys bootbench.ca=http://10.0.2.2:$HTTP_PORT/ca.crt'"
step "the base alone boots to the menu" "Esc goes back" 240
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30
type_line "clear; echo PACKS=\$(ls /etc/bootbench/packs.d | wc -l) \$(ls /etc/bootbench/packs.d | tr '\n' ,)"
step_result "only the base is loaded" PACKS "PACKS=1 base," 30
# the keys fetched and good (no line of theirs named), dropbear's pack named, no server
type_line "clear; L=/run/bootbench/console.log; echo SSH=\$(grep -c 'ssh: bootbench.ssh_key: cannot run dropbear: it is in the burnin pack (burnin.img), which this boot did not load; no ssh server' \$L) \$(grep -c 'ssh: dropbear on port 22' \$L) \$(grep -c 'fetched file line' \$L)"
step_result "good ssh keys, the base alone: no ssh server, the line names dropbear's pack" SSH "SSH=1 0 0" 60
type_line "clear; echo BADELF=\$(dmesg | grep -c 'Invalid ELF header')"
step_result "the kernel log has no module refused as not ELF" BADELF "BADELF=0" 30
# the line before the marker, which step_result waits for (after it, a loaded host's capture
# caught the marker with the line not drawn yet)
type_line "clear; bootbench fsck /dev/vda > /tmp/fsck.log 2>&1; rc=\$?; grep cannot /tmp/fsck.log; echo FSCK=\$rc"
step_result "fsck of the btrfs: btrfs is named as in the rescue pack, which this boot did not load" FSCK \
	"cannot run btrfs: it is in the rescue pack (rescue.img), which this boot did not load" 60
type_line "clear; bootbench raid --zfs=stripe --destroy=/dev/vda,/dev/vdb /dev/vda /dev/vdb > /tmp/z.log 2>&1; rc=\$?; cat /tmp/z.log; echo ZFS=\$rc \$(grep -c 'zpool is not here: it is in the zfs pack (zfs.img)' /tmp/z.log)"
step_result "raid --zfs without the ZFS pack: exit 2, the pack named" ZFS "ZFS=2 1" 60
type_line "exit"
menu_power_off
finish
