# SPDX-License-Identifier: MIT
# sandbox.sh (issue 44) - one sandbox for every job, the native engine's
# threads and fio's (safety/confine.h, safety/syscalls.h, engine/ring.h):
#   - bootbench sandbox-check: every way out tried from inside both worlds
#     (unshare, setns, TIOCSTI, unix/inet/netlink sockets, mount, ptrace,
#     capset, modules, BPF, /etc, /proc/sys, /sys, a disk not named, a node,
#     a link, a program) is refused, and each refused call is named;
#   - a native run's engine thread, seen from outside while it runs: / read-
#     only, its working folder writable, a /dev of its own, the filter on,
#     CAP_SYS_ADMIN and CAP_DAC_OVERRIDE gone, the main thread untouched;
#   - a folder swapped for a link between the check and the run
#     (BOOTBENCH_RUN_HOLD=sandbox): to /etc, refused by the rule, nothing
#     written there; to a folder of /tmp, the open follows no link;
#   - under strace: the ring restricted before it is enabled, the filter
#     installed in the sandbox's thread only;
#   - a job of fio's network engine: refused before fio runs.
. tests/lib.sh
[ "$(id -u)" = 0 ] || skip "needs root (mount namespaces)"
need_commands strace mkfs.ext4 debugfs losetup
cd "$T" || exit 1

# --- every way out, tried from inside ---
"$BB" sandbox-check > check.out 2> check.err
rc=$?
check "sandbox-check: exit 0 (exit $rc)" [ $rc = 0 ]
check "... the sandbox holds" grep -q "the sandbox holds: every way out refused" check.out
check "... 20 ways refused in each world ($(grep -c '^  refused' check.out) in all)" [ "$(grep -c '^  refused' check.out)" = 40 ]
check "... none allowed, unsure or untried" sh -c "! grep -qE '^  (ALLOWED|UNSURE|UNTRIED)' check.out"
for call in unshare setns ioctl socket socketpair mount ptrace capset bpf mknod symlink; do
	check "... the engine's threads name the refused $call" grep -q "refused system call $call (nr" check.err
	check "... fio's supervisor names the refused $call" grep -q "sandbox-check: the sandbox refused system call $call (nr" check.err
done
check "... the program fio's sandbox tried to run is stopped" grep -q "refused to run a program" check.err
[ $rc = 0 ] || { cat check.out check.err | head -n 60; }

# --- a native run's engine thread, seen from outside ---
mkdir work && cd work || exit 1
"$BB" run --name=w --filename=w.dat --rw=randwrite --bs=4k --size=4m --time_based --runtime=3 \
	--ioengine=io_uring > ../run.out 2>&1 &
pid=$!
i=0; while [ $i -lt 50 ]; do
	worker=""
	for t in /proc/$pid/task/*; do
		tid=${t##*/}
		[ "$tid" = $pid ] || [ "$(cat $t/comm 2>/dev/null)" = bb-sandbox ] || worker=$tid
	done
	[ -n "$worker" ] && break
	sleep 0.1; i=$((i + 1))
done
check "a native run's engine thread is there" [ -n "$worker" ]
if [ -n "$worker" ]; then
	tw=/proc/$pid/task/$worker
	cp $tw/mountinfo ../worker.mountinfo; cp $tw/status ../worker.status; cp /proc/$pid/status ../main.status
	check "... its / is read-only" awk '$5 == "/" { found = 1; if ($6 !~ /(^|,)ro(,|$)/) bad = 1 } END { exit !(found && !bad) }' ../worker.mountinfo
	check "... its working folder ($PWD) is writable, nodev" awk -v d="$PWD" '$5 == d && $6 ~ /(^|,)rw(,|$)/ && $6 ~ /nodev/ { ok = 1 } END { exit !ok }' ../worker.mountinfo
	check "... its /dev is a tmpfs of its own, read-only" awk '$5 == "/dev" { fs = $0 } END { exit !(fs ~ / - tmpfs bbdev / && fs ~ / ro,/) }' ../worker.mountinfo
	check "... /etc is read-only there" awk '$5 == "/" || $5 == "/etc" { ro = ($6 ~ /(^|,)ro(,|$)/) } END { exit !ro }' ../worker.mountinfo
	check "... its filter is on (Seccomp: 2), no new privileges" sh -c "grep -q '^Seccomp:[[:space:]]*2' ../worker.status && grep -q '^NoNewPrivs:[[:space:]]*1' ../worker.status"
	eff=$(sed -n 's/^CapEff:[[:space:]]*//p' ../worker.status)
	check "... CAP_SYS_ADMIN and CAP_DAC_OVERRIDE gone (CapEff $eff)" python3 -c "import sys; e = int('$eff', 16); sys.exit(e & (1 << 21 | 1 << 1))"
	check "... the main thread is not in it (Seccomp: 0: it writes the results)" grep -q '^Seccomp:[[:space:]]*0' ../main.status
	check "... nor its mounts (the host's / as it is)" sh -c "[ \"\$(readlink /proc/$pid/ns/mnt)\" = \"\$(readlink /proc/self/ns/mnt)\" ]"
fi
wait $pid
check "... and the run passes (exit $?)" grep -q "err= 0" ../run.out
cd "$T" || exit 1

# --- a folder swapped for a link after the check ---
swap_run() { # TARGET: d/f.dat checked, then d becomes a link to TARGET before the sandbox
	rm -rf swap && mkdir -p swap/d && cd swap || exit 1
	BOOTBENCH_RUN_HOLD=sandbox "$BB" run --name=s --filename=d/bbsandbox-$$.dat --rw=write --bs=4k --size=64k \
		> ../swap.out 2>&1 &
	spid=$!
	i=0; while [ "$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' /proc/$spid/status 2>/dev/null)" != T ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1)); done
	mv d d.checked && ln -s "$1" d
	kill -CONT $spid
	wait $spid
	swap_rc=$?
	cd "$T" || exit 1
}
swap_run /etc
check "swapped to /etc: the run fails (exit $swap_rc)" [ $swap_rc != 0 ]
check "... the rule refuses it again, naming /etc" grep -q "refusing to write a file: .*in /etc" swap.out
check "... nothing written in /etc" [ ! -e /etc/bbsandbox-$$.dat ]
rm -f /etc/bbsandbox-$$.dat
mkdir -p other
swap_run "$T/other"
check "swapped to a folder of /tmp: the run fails (exit $swap_rc)" [ $swap_rc != 0 ]
check "... the open follows no link, and says so" grep -q "a link is on its way" swap.out
check "... nothing written there" [ ! -s "$T/other/bbsandbox-$$.dat" ]

# --- under strace ---
mkdir -p st && cd st || exit 1
strace -f -o ../strace.out -e trace=seccomp,io_uring_register,unshare,mount_setattr \
	"$BB" run --name=st --filename=st.dat --rw=randrw --bs=4k --size=1m --ioengine=io_uring --iodepth=4 > ../st.out 2>&1
cd "$T" || exit 1
main_pid=$(awk '/\+\+\+ exited/ { p = $1 } END { print p }' strace.out)	# the last to end
check "strace: the ring restricted to reads, writes and syncs" grep -q "IORING_REGISTER_RESTRICTIONS, \[{opcode=IORING_RESTRICTION_SQE_OP, sqe_op=IORING_OP_READ}" strace.out
check "... before it is enabled" awk '/IORING_REGISTER_RESTRICTIONS/ { r = NR } /IORING_REGISTER_ENABLE_RINGS/ { e = NR } END { exit !(r && e > r) }' strace.out
check "... the filter installed by the sandbox's thread, not the main one" awk -v m="$main_pid" '/seccomp\(SECCOMP_SET_MODE_FILTER/ { n++; if ($1 == m) bad = 1 } END { exit !(n == 1 && !bad) }' strace.out
check "... after its own mount namespace" awk '/unshare\(CLONE_NEWNS\)/ { u = NR } /seccomp\(SECCOMP_SET_MODE_FILTER/ { s = NR } END { exit !(u && s > u) }' strace.out
check "... and the run passes" grep -q "err= 0" st.out

# --- what a review found fio writing in a folder it may write (sha256 before and after) ---
sha() { sha256sum < "$1" | cut -c1-64; }
mkdir -p rv/w && cd rv || exit 1
truncate -s 16M back.img
for i in 1 2 3 4 5; do L=$(losetup -f --show back.img 2>/dev/null) && break; sleep 0.2; done
if [ -z "$L" ]; then
	bad "a loop device over back.img"
else
	LOOPS="$LOOPS $L"
	before=$(sha back.img)
	FIO="--verify_backlog=8 --verify=md5"	# options only fio has: the job is delegated
	cd w || exit 1
	printf '[back.img]\ndirectory=%s\nfilename_format=$jobname\nrw=write\nbs=4k\nsize=1m\nverify_backlog=8\nverify=md5\n' "$T/rv" > ff.fio
	"$BB" run ff.fio > ../ff.out 2>&1
	check "delegated: filename_format naming a loop's backing file fails (exit $?)" [ $? != 0 ]
	check "... its bytes the same" [ "$(sha ../back.img)" = "$before" ]
	printf '[d]\ndirectory=%s\nfilename=back.img\nrw=write\nbs=4k\nsize=1m\nverify_backlog=8\nverify=md5\n' "$T/rv" > dir.fio
	"$BB" run dir.fio > ../dir.out 2>&1
	check "delegated: directory= and a relative filename= naming it: refused, exit 2 (exit $?)" [ $? = 2 ]
	check "... naming the loop device" grep -q "backs a loop device (${L#/dev/} is backed by it)" ../dir.out
	printf 'fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n%s close\n' "$T/rv/back.img" "$T/rv/back.img" \
		"$T/rv/back.img" "$T/rv/back.img" > replay.log
	printf '[r]\nfilename=ok.dat\nrw=read\nsize=64k\nread_iolog=%s\nverify_backlog=8\nverify=md5\n' "$PWD/replay.log" > replay.fio
	"$BB" run replay.fio > ../replay.out 2>&1
	check "delegated: a read_iolog that writes the loop's backing file: its bytes the same" [ "$(sha ../back.img)" = "$before" ]
	printf '[p]\nfilename=bk$pagesize.img\nrw=write\nbs=4k\nsize=64k\nverify_backlog=8\nverify=md5\n' > page.fio
	"$BB" run page.fio > ../page.out 2>&1
	check "delegated: \$pagesize in a name: refused, exit 2 (exit $?)" [ $? = 2 ]
	check "... saying fio's keywords make a name not checked" grep -q "fio's \$keywords in a name" ../page.out
	# a hard link in the working folder to a file elsewhere: refused, both ways
	echo precious > ../elsewhere.txt && ln ../elsewhere.txt hl
	"$BB" run --name=h --filename=hl --rw=write --bs=4k --size=4k > ../hl.out 2>&1
	check "native: a file with two names (a hard link): refused, exit 2 (exit $?)" [ $? = 2 ]
	"$BB" run --name=h --filename=hl --rw=write --bs=4k --size=4k $FIO > ../hl2.out 2>&1
	check "delegated: the same, refused, exit 2 (exit $?)" [ $? = 2 ]
	check "... naming its names" grep -q "has 2 names (hard links)" ../hl2.out
	check "... its other name's bytes the same" [ "$(cat ../elsewhere.txt)" = precious ]
	# a hard link fio would write under a name of its own making (filename_format): held read-only
	ln ../elsewhere.txt link.0.0
	printf '[link]\nrw=write\nbs=4k\nsize=64k\nverify_backlog=8\nverify=md5\n' > made.fio
	"$BB" run made.fio > ../made.out 2>&1
	check "delegated: fio's own name for a file that is a hard link: the run fails (exit $?)" [ $? != 0 ]
	check "... the other name's bytes the same" [ "$(cat ../elsewhere.txt)" = precious ]
	# the logs' temporary file as a hard link to the loop's backing file
	ln ../back.img p_bw.1.log.tmp
	"$BB" run --name=x --filename=f.dat --rw=write --size=64k --write_bw_log=p > ../log.out 2>&1
	check "native: a log's temporary name linked to the loop's file: its bytes the same" [ "$(sha ../back.img)" = "$before" ]
	check "... and the log written" [ -s p_bw.1.log ]
	# verify_dump's file as a hard link to a file elsewhere: a new file is made, the other name untouched
	head -c 8192 /dev/urandom > data.bin && ln ../elsewhere.txt data.bin.0.received
	"$BB" run --name=v --filename=data.bin --rw=write --bs=4k --size=8k --verify=crc32c --verify_only=1 --verify_dump=1 \
		> ../dump.out 2>&1
	check "native: verify_dump over a hard link: the other name's bytes the same" [ "$(cat ../elsewhere.txt)" = precious ]
	check "... the block dumped in a file of its own" sh -c "[ \"\$(stat -c %h data.bin.0.received)\" = 1 ] && [ \"\$(stat -c %s data.bin.0.received)\" = 4096 ]"
	# a read-only mount stays read-only; a mount in the working folder stays where names reach it
	truncate -s 32M ../fs.img && mkfs.ext4 -q -F ../fs.img
	for i in 1 2 3 4 5; do M=$(losetup -f --show ../fs.img 2>/dev/null) && break; sleep 0.2; done
	LOOPS="$LOOPS $M"
	mkdir -p ro mnt && echo keep > ro/victim && mount --bind ro ro && mount -o remount,bind,ro ro
	"$BB" run --name=e --filename=ro/victim --rw=write --bs=4k --size=4k > ../ro.out 2>&1
	check "native: a file on a read-only mount: the run fails (exit $?)" [ $? != 0 ]
	"$BB" run --name=e --filename=ro/victim2 --rw=write --bs=4k --size=4k $FIO > ../ro2.out 2>&1
	check "delegated: the same (exit $?)" [ $? != 0 ]
	check "... nothing written there" sh -c "[ \"\$(cat ro/victim)\" = keep ] && [ ! -e ro/victim2 ]"
	umount ro
	mount "$M" mnt
	"$BB" run --write="$M" --name=g --filename=mnt/g1.dat:g2.dat --rw=write --bs=4k --size=64k > ../sub.out 2>&1
	check "native: a file on a filesystem mounted in the working folder and one beside it: the run passes" grep -q "err= 0" ../sub.out
	"$BB" run --write="$M" --name=g --filename=mnt/g3.dat:g4.dat --rw=write --bs=4k --size=64k $FIO > ../sub2.out 2>&1
	check "delegated: the same passes (exit $?)" grep -q "err= 0" ../sub2.out
	umount mnt
	# the filesystem's last reference (the runs' mount namespaces) may be dropped a moment after
	# the umount, and only then is it written out to the image: read it until it is, 5 s at most
	i=0; while [ $i -lt 50 ] && ! debugfs -R 'ls -l /' ../fs.img 2>/dev/null | grep -q g3.dat; do sleep 0.1; i=$((i + 1)); done
	check "... both files on that filesystem, none hidden under its mount point" \
		sh -c "[ ! -e mnt/g1.dat ] && [ ! -e mnt/g3.dat ] && debugfs -R 'ls -l /' ../fs.img 2>/dev/null | grep -q g1.dat && debugfs -R 'ls -l /' ../fs.img 2>/dev/null | grep -q g3.dat"
	# /etc bound into the working folder is /etc (judged on the root's filesystem; a chroot's / is no mount)
	if awk '$5 == "/" { found = 1 } END { exit !found }' /proc/self/mountinfo; then
		mkdir -p etcb && mount --bind /etc etcb
		"$BB" run --name=b --filename=etcb/bbsandbox-$$.dat --rw=write --bs=4k --size=4k > ../etcb.out 2>&1
		check "/etc bound in the working folder: refused, exit 2 (exit $?)" [ $? = 2 ]
		check "... naming it /etc" grep -q "which is /etc of the root's filesystem" ../etcb.out
		check "... nothing written in /etc" [ ! -e /etc/bbsandbox-$$.dat ]
		umount etcb
		rm -f /etc/bbsandbox-$$.dat
	else
		echo "note: / is no mount point here (a chroot): a bind of /etc is not judged by its filesystem, not tried"
	fi
	# /dev/shm: a delegated job's file stays (fio's sandbox has the host's)
	rm -f /dev/shm/bbsandbox-$$.dat
	"$BB" run --name=s --filename=/dev/shm/bbsandbox-$$.dat --rw=write --bs=4k --size=64k $FIO > ../shm.out 2>&1
	check "delegated: a file in /dev/shm is there after the run ($(stat -c %s /dev/shm/bbsandbox-$$.dat 2>/dev/null) bytes)" \
		[ "$(stat -c %s /dev/shm/bbsandbox-$$.dat 2>/dev/null)" = 65536 ]
	# ... and a file there only read is seen, by both engines (the host's /dev/shm, read-only)
	"$BB" run --name=r --filename=/dev/shm/bbsandbox-$$.dat --rw=randread --bs=4k --size=64k > ../shmr.out 2>&1
	check "native: a file in /dev/shm only read: the run passes (exit $?)" grep -q "err= 0" ../shmr.out
	"$BB" run --name=r --filename=/dev/shm/bbsandbox-$$.dat --rw=randread --bs=4k --size=64k $FIO > ../shmr2.out 2>&1
	check "delegated: the same (exit $?)" grep -q "err= 0" ../shmr2.out
	rm -f /dev/shm/bbsandbox-$$.dat
	cd "$T" || exit 1
fi
cd "$T" || exit 1

# --- fio's sandbox: a network engine is refused before fio runs (its calls: sandbox-check above) ---
if command -v fio >/dev/null; then
	mkdir -p net && cd net || exit 1
	printf '[n]\nioengine=net\nhostname=127.0.0.1\nport=18999\nprotocol=tcp\nrw=write\nbs=4k\nsize=64k\n' > net.fio
	"$BB" run net.fio > ../net.out 2> ../net.err
	rc=$?
	cd "$T" || exit 1
	check "a job of fio's network engine: refused, exit 2 (exit $rc)" [ $rc = 2 ]
	check "... naming it" grep -q "ioengine=net: a network engine" net.err
else
	echo "note: fio is not installed: the network engine's job is not tried"
fi
finish
