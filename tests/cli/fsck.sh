# SPDX-License-Identifier: MIT
# bootbench fsck (issue 16, "Check filesystems") on loop devices: a clean
# ext4 and vfat pass their no-change checks; an ext4 with a cleared inode
# is reported with errors and left unchanged (checksum); --repair without
# consent is refused before anything runs; with --write it is repaired and
# a fresh check finds it clean; a mounted filesystem, a file and an
# unknown option get one line and exit 2.
. tests/lib.sh
need_commands mkfs.ext4 mkfs.vfat debugfs e2fsck fsck.fat
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
mkdir -p "$T/tree/d"
for i in 1 2 3; do echo "file $i" > "$T/tree/d/f$i"; done
truncate -s 32M "$T/ext4.img"
mkfs.ext4 -q -d "$T/tree" "$T/ext4.img"
truncate -s 32M "$T/fat.img"
mkfs.vfat "$T/fat.img" > /dev/null
loopdev EXT "$T/ext4.img" 32M
loopdev FAT "$T/fat.img" 32M

"$BB" fsck "$EXT" "$FAT" > "$T/out" 2>&1
rc=$?
cat "$T/out"
check "clean ext4 and vfat: exit 0" [ $rc = 0 ]
check "... each checker named with its no-change mode and exit status" \
	sh -c "grep -q '^fsck: e2fsck -f -n $EXT: exit status 0' '$T/out' && grep -q '^fsck: fsck.fat -n $FAT: exit status 0' '$T/out'"

# a cleared inode that a directory still names
losetup -d "$EXT"; LOOPS=$(echo "$LOOPS" | sed "s|$EXT||")
debugfs -w -R "clri /d/f2" "$T/ext4.img" 2>/dev/null
loopdev EXT "$T/ext4.img" 32M
before=$(sha256sum < "$T/ext4.img")
"$BB" fsck "$EXT" > "$T/out" 2>&1
rc=$?
check "a damaged ext4: exit 1, said to have errors" sh -c "[ $rc = 1 ] && grep -q '^fsck: $EXT (ext4) has errors: repair with --repair --write=DEV' '$T/out'"
check "... e2fsck's findings are shown" grep -q "f2" "$T/out"
check "... and nothing was changed" [ "$(sha256sum < "$T/ext4.img")" = "$before" ]
"$BB" fsck --repair "$EXT" > "$T/out" 2>&1
rc=$?
check "--repair without consent: exit 2, one line, nothing run" sh -c "[ $rc = 2 ] && [ \$(grep -c . '$T/out') = 1 ] && ! grep -q running '$T/out'"
check "... nothing changed" [ "$(sha256sum < "$T/ext4.img")" = "$before" ]
"$BB" fsck --repair --write="$EXT" "$EXT" > "$T/out" 2>&1
rc=$?
cat "$T/out"
check "--repair --write=DEV: exit 0, repaired and checked again clean" sh -c "[ $rc = 0 ] && grep -q '^fsck: running e2fsck -f -y $EXT' '$T/out' && grep -q '^fsck: $EXT (ext4) repaired, clean now' '$T/out'"
check "... e2fsck -n agrees" e2fsck -f -n "$T/ext4.img"

bad_input() { # description args...
	d=$1; shift
	"$BB" fsck "$@" > "$T/out" 2>&1
	rc=$?
	check "$d: exit 2, one line ($(head -c 100 "$T/out"))" sh -c "[ $rc = 2 ] && [ \$(grep -c . '$T/out') = 1 ]"
}
mkdir -p "$T/m"
mount -o ro "$EXT" "$T/m"	# ext4: this host's kernel has no vfat
bad_input "a mounted filesystem" "$EXT"
umount "$T/m"
bad_input "a file" "$T/ext4.img"
bad_input "an unknown option" --force "$EXT"
bad_input "no device" --repair
bad_input "--write without --repair" --write="$EXT" "$EXT"
finish
