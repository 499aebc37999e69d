# SPDX-License-Identifier: MIT
# job_write_rule.sh - what a job may write (issue 44 item 1 and 2, docs/run.md
# "What a job may write"; safety/writable.c): a job file writes its files in
# the working folder, /tmp, or a filesystem named in --write, its consented
# disks, and nothing else. Each refusal is exit 2, one line, and the bytes
# of what it named are the same after it (sha256):
#   - the stick's bootbench.conf (an image mounted in $T, declared the boot
#     medium through BOOTBENCH_MEDIA_FILE), even with --write naming it;
#   - /etc/passwd, directory=/, a /sys queue setting, a /proc/sys setting;
#   - a log prefix outside the allowed folders;
#   - the file behind a loop device not consented;
#   - a symbolic link in /tmp to /etc/passwd;
# and the common cases still run: a file in the working folder, in /tmp, on a
# mounted filesystem named in --write, relative names under --workdir.
. tests/lib.sh
need_commands losetup mkfs.ext4 sha256sum
cd "$T" || exit 1
sha() { sha256sum < "$1" | cut -c1-64; }
loop() { # VAR FILE: a loop device over FILE
	for i in 1 2 3 4 5; do _d=$(losetup -f --show "$2" 2>/dev/null) && break; sleep 0.2; done
	[ -n "$_d" ] || { bad "a loop device over $2"; finish; }
	LOOPS="$LOOPS $_d"
	eval "$1=\$_d"
}
job() { # FILE OPTIONS...: a job file writing 4 KiB
	_f=$1; shift
	printf '[w]\nrw=write\nbs=4k\nsize=4k\n' > "$_f"
	for o in "$@"; do echo "$o" >> "$_f"; done
}

# the stick: an image mounted where the test says the boot medium is (ext4:
# this host's kernel has no FAT, and the rule does not ask the type)
truncate -s 32M stick.img && mkfs.ext4 -q -F stick.img
loop S stick.img
mkdir media
mount "$S" media || { bad "the stick's image mounts"; finish; }
echo "bootbench.run=quick" > media/bootbench.conf && sync
echo "boot $S" > mediafile
before=$(sha media/bootbench.conf)
job stick.fio "filename=$T/media/bootbench.conf"
refuses "the stick's bootbench.conf" "the boot" env BOOTBENCH_MEDIA_FILE="$T/mediafile" "$BB" run stick.fio
refuses "... even with --write naming the stick" "the boot" \
	env BOOTBENCH_MEDIA_FILE="$T/mediafile" "$BB" run --write="$S" stick.fio
check "... bootbench.conf's bytes are the same" [ "$(sha media/bootbench.conf)" = "$before" ]
# started on the stick: no working folder there, for bootbench's engine or fio's (fio names the file itself)
printf '[x]\nfilename_format=bootbench.conf\nrw=write\nbs=4k\nsize=8k\nverify_backlog=8\nverify=md5\n' > ff.fio
(cd media && env BOOTBENCH_MEDIA_FILE="$T/mediafile" "$BB" run ../ff.fio > ../ff.out 2>&1)
check "started on the stick, fio's own name for bootbench.conf: the run fails (exit $?)" [ $? != 0 ]
(cd media && env BOOTBENCH_MEDIA_FILE="$T/mediafile" "$BB" run --name=x --filename=f.dat --rw=write --bs=4k --size=4k > ../wd.out 2>&1)
check "... a relative name there: refused (exit $?)" [ $? = 2 ]
check "... saying it is on the boot or results medium" grep -q "on the boot or results medium" wd.out
refuses "--workdir on the stick" "on the boot or results medium" \
	env BOOTBENCH_MEDIA_FILE="$T/mediafile" "$BB" run --workdir="$T/media" --name=x --filename=f.dat --rw=write --bs=4k --size=4k
check "... bootbench.conf's bytes are the same" [ "$(sha media/bootbench.conf)" = "$before" ]
check "... nothing else written there" [ -z "$(ls media | grep -v -e bootbench.conf -e lost+found)" ]
umount media

before=$(sha /etc/passwd)
job passwd.fio filename=/etc/passwd
refuses "/etc/passwd" "in /etc, the appliance's own" "$BB" run passwd.fio
check "... unchanged" [ "$(sha /etc/passwd)" = "$before" ]
job root.fio directory=/ filename=x.dat
refuses "directory=/" "the appliance's own" "$BB" run root.fio
check "... no /x.dat" [ ! -e /x.dat ]
ra=/sys/block/${S#/dev/}/queue/read_ahead_kb
before=$(cat "$ra")
job sys.fio "filename=$ra"
refuses "a /sys queue setting" "in /sys" "$BB" run sys.fio
check "... unchanged" [ "$(cat "$ra")" = "$before" ]
before=$(cat /proc/sys/vm/stat_interval)
job proc.fio filename=/proc/sys/vm/stat_interval
refuses "a /proc/sys setting" "in /proc" "$BB" run proc.fio
check "... unchanged" [ "$(cat /proc/sys/vm/stat_interval)" = "$before" ]

mkdir -p /var/tmp
job log.fio "filename=$T/ok.dat" write_bw_log=/var/tmp/bbrule-log
refuses "a log outside the allowed folders" "refusing to write its log" "$BB" run log.fio
check "... no log made" sh -c "! ls /var/tmp/bbrule-log* > /dev/null 2>&1"

head -c 8M /dev/urandom > back.img
loop L back.img
before=$(sha back.img)
job back.fio "filename=$T/back.img"
refuses "the file behind a loop device not consented" "backs a loop device" "$BB" run back.fio
check "... unchanged" [ "$(sha back.img)" = "$before" ]

ln -sf /etc/passwd /tmp/bbrule-link.$$
before=$(sha /etc/passwd)
job link.fio "filename=/tmp/bbrule-link.$$"
refuses "a symbolic link in /tmp to /etc/passwd" "symbolic link" "$BB" run link.fio
rm -f /tmp/bbrule-link.$$
check "... /etc/passwd unchanged" [ "$(sha /etc/passwd)" = "$before" ]

# the same jobs sent to the image's fio (--engine-of-record=fio): the same rule, before fio starts
FIO=${BOOTBENCH_FIO:-}
[ -n "$FIO" ] || for f in "$OLDPWD/out/fio/fio" /usr/bin/fio; do [ -x "$f" ] && FIO=$f && break; done
if [ -n "$FIO" ]; then
	export BOOTBENCH_FIO="$FIO"
	before=$(sha /etc/passwd)
	refuses "fio: /etc/passwd" "in /etc, the appliance's own" "$BB" run --engine-of-record=fio passwd.fio
	check "... unchanged" [ "$(sha /etc/passwd)" = "$before" ]
	refuses "fio: directory=/" "the appliance's own" "$BB" run --engine-of-record=fio root.fio
	before=$(sha back.img)
	refuses "fio: the file behind a loop device" "backs a loop device" "$BB" run --engine-of-record=fio back.fio
	check "... unchanged" [ "$(sha back.img)" = "$before" ]
	refuses "fio: a log outside the allowed folders" "/var/tmp" "$BB" run --engine-of-record=fio log.fio
	check "... no log made" sh -c "! ls /var/tmp/bbrule-log* > /dev/null 2>&1"
else
	echo "note: no fio binary (out/fio/fio or /usr/bin/fio): the delegated cases are not checked here"
fi

# the common cases
job here.fio filename=here.dat
check "a file in the working folder runs" sh -c "'$BB' run here.fio > /dev/null && [ -s here.dat ]"
job tmp.fio "filename=/tmp/bbrule.$$.dat"
check "a file in /tmp runs" sh -c "'$BB' run tmp.fio > /dev/null && [ -s /tmp/bbrule.$$.dat ]"
rm -f "/tmp/bbrule.$$.dat"
truncate -s 64M fs.img && mkfs.ext4 -q -F fs.img
loop F fs.img
mkdir -p /mnt/bbrule.$$ && mount "$F" /mnt/bbrule.$$
job fs.fio "directory=/mnt/bbrule.$$" filename=f.dat
refuses "a mounted filesystem not named" "--write=$F" "$BB" run fs.fio
check "... runs with --write=$F" sh -c "'$BB' run --write='$F' fs.fio > /dev/null && [ -s /mnt/bbrule.$$/f.dat ]"
umount /mnt/bbrule.$$ && rmdir /mnt/bbrule.$$
mkdir wd
job "$T/rel.fio" filename=rel.dat
check "relative names under --workdir, started from /" sh -c "cd / && '$BB' run --workdir='$T/wd' '$T/rel.fio' > /dev/null && [ -s '$T/wd/rel.dat' ]"
finish
