# SPDX-License-Identifier: MIT
# bootbench erase's verdicts are true (issue 43), on loop devices: a disk
# whose size is not a whole MiB is written and read back to its last byte;
# the discard comes after the read-back (the file still whole when the
# read-back starts, its blocks gone after), and auto says why no purge was
# used; data planted between the erase and the read-back
# (BOOTBENCH_ERASE_HOLD=verify stops the process there) is found, random
# data compared byte for byte with its seed's stream, the LBAs named in
# order; the signing key read before the erase (removed at the hold, the
# certificates still signed, its fingerprint inside, each page naming its
# JSON's SHA-256); SIGINT, SIGHUP and SIGTERM stop an erase within 2 s with
# a certificate that says "not erased"; a certificate is never replaced;
# --progress-fd that is not open is refused; three disks at once; and
# --verify-only certifies what a disk holds (zeros, ones, a pattern) and
# writes nothing. The review's false verdicts (11-18): a disk whose thread
# never started (strace injects EAGAIN into its clone) is not erased;
# leftovers in --output (a page, a signature, another key's public key) and
# a read-only --output are refused before any write; so are the output and
# --progress-fd on a disk being erased; Ctrl-Z and fg do not fail a pass; a
# disk that grew during the erase is not erased; the sample reads the last
# MiB whole; --verify-only takes a one-byte --pattern; markers_written is
# what was written; a mismatch's LBA is its first differing logical block.
# erase.sh has the erase's own checks.
# quiet
# (with none of its lane beside it: beside two other host tests in make check its interrupted
# erases had ended, exit 1, before the signal, and the stopped one before its first stop)
. tests/lib.sh
need_commands losetup openssl python3 sha256sum cmp
REPO=$PWD
cd "$T" || exit 1
# a disk in memory for section 5 (1 GiB: a clear writes zeros to a file in
# /dev/shm at 5 GB/s, 8 passes of 512 MiB took 0.8 s, less than the second
# between two progress lines; random data, 1 GiB, 8 passes: 2 s)
SHM=$(mktemp -d /dev/shm/bbverdicts.XXXXXX) || exit 1
trap 'cleanup; rm -rf "$SHM"' EXIT
openssl genpkey -algorithm ed25519 -out k.pem 2>/dev/null
MiB=1048576

# disk NAME BYTES [random|zero|ones|HEX]: a loop device over a file of that
# content (random data unless said), in $DEV
disk() {
	case ${3:-random} in
	random) head -c "$2" /dev/urandom > "$1.img" ;;
	zero) truncate -s "$2" "$1.img" ;;
	ones) head -c "$2" /dev/zero | tr '\0' '\377' > "$1.img" ;;
	*) python3 -c "import sys; p = bytes.fromhex(sys.argv[1]); n = int(sys.argv[2])
sys.stdout.buffer.write((p * (n // len(p) + 1))[:n])" "$3" "$2" > "$1.img" ;;
	esac
	DEV=$(losetup -f --show "$1.img") || { bad "a loop device for $1"; finish; }
	LOOPS="$LOOPS $DEV"
}
name() { echo "${1#/dev/}"; }
state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }
# held PID OUT: waits (10 s at most) until the erase said it holds before the
# read-back and is stopped (state T); 1 when it ended or never held
held() {
	_n=100
	while [ $_n -gt 0 ]; do
		case $(state "$1") in '' | Z) return 1 ;; esac
		grep -qs 'held before the read-back' "$2" && [ "$(state "$1")" = T ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# rc_json RC WANT FILE EXPR: the exit status was WANT, and the certificate FILE says EXPR (json)
rc_json() { [ "$1" = "$2" ] && json "$3" "$4"; }
# verdict RC WANT FILE EXPR: rc_json, and when it fails the exit, result and failure said
verdict() {
	rc_json "$@" && return 0
	echo "    exit $1: $(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d.get('result', '?'), d.get('failure', ''))" "$3" 2>&1 | tail -n 1)"
	return 1
}
# sha FILE: its SHA-256 in hex
sha() { sha256sum < "$1" | cut -d' ' -f1; }

# 1. sizes that are not a whole MiB: every byte written and read back
disk odd $((64 * MiB + 1536)); O=$DEV
"$BB" erase --destroy="$O" --output=c1 --trim=off --method=clear "$O" > o.out 2>&1
rc=$?
check "64 MiB + 1536 B of random data, clear: exit 0, erased" sh -c "[ $rc = 0 ] && grep -q ': erased (clear;' o.out"
check "... every byte of the file zero, its last 1536 too" cmp -s -n $((64 * MiB + 1536)) odd.img /dev/zero
check "... the capacity and the bytes read back are all 67110400" json "c1/erase-$(name "$O").json" \
	"d['media']['capacity_bytes'] == 67110400 and d['verification']['bytes_read'] == 67110400 and d['result'] == 'erased'"
disk half $((32 * MiB + 512 * 1024)); H=$DEV
"$BB" erase --destroy="$H" --output=c1h --trim=off --method=clear "$H" > h.out 2>&1
rc=$?
check "32 MiB + 512 KiB: exit 0, erased, all of it read back" rc_json $rc 0 "c1h/erase-$(name "$H").json" \
	"d['verification']['bytes_read'] == $((32 * MiB + 512 * 1024)) and d['result'] == 'erased'"
check "... every byte of the file zero" cmp -s -n $((32 * MiB + 512 * 1024)) half.img /dev/zero

# 2 and 10. auto, --trim=auto: the discard after the read-back, the purges not used said why
disk dis $((16 * MiB)); S=$DEV
blocks=$(stat -c %b dis.img)
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$S" --output=c2 "$S" > dis.out 2>&1 &
pid=$!
held $pid dis.out; h=$?
check "the erase holds before the read-back (BOOTBENCH_ERASE_HOLD=verify)" [ $h = 0 ]
check "... when the read-back starts the file is whole: no discard yet" [ "$(stat -c %b dis.img)" = "$blocks" ]
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
J=c2/erase-$(name "$S").json
check "auto on a loop device: clear, exit 0, erased, every byte read back" rc_json $rc 0 "$J" \
	"d['result'] == 'erased' and d['sanitization']['method'] == 'clear' and d['verification']['bytes_read'] == $((16 * MiB))"
check "... the certificate says the whole disk discarded after the read-back" json "$J" \
	"d['sanitization']['discard'] == 'the whole disk discarded after the read-back'"
check "... and it was: the file's blocks are gone now" [ "$(stat -c %b dis.img)" -lt $((blocks / 8)) ]
purges=$("$BB" erase --help 2>&1 | sed -n 's/^  \([a-z0-9-]*\) (purge)$/\1/p' | tr '\n' ' ')
check "... every purge ($(echo $purges | wc -w) of them) named in not_used with why: not for a loop disk" json "$J" \
	"len('$purges'.split()) >= 5 and all(re.search(re.escape(m) + r': [^;]*loop', d['sanitization']['not_used'])
	 for m in '$purges'.split())"

# 3. data planted at the hold is found: random data byte for byte, zeros
disk rnd $((32 * MiB)); R=$DEV
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$R" --output=c3 --method=clear --pattern=random "$R" > rnd.out 2>&1 &
pid=$!
if held $pid rnd.out; then
	dd if=/dev/urandom of="$R" bs=1M count=1 seek=10 oflag=direct conv=notrunc 2>/dev/null
else
	bad "random data: the erase held before the read-back"
fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
J=c3/erase-$(name "$R").json
check "random data, 1 MiB of other random data planted before the read-back: exit 1, not erased" \
	rc_json $rc 1 "$J" "d['result'] == 'not erased'"
check "... its 256 blocks of 4 KiB, the 16 lowest LBAs from 20480 up in order" json "$J" \
	"d['verification']['mismatched_blocks'] == 256 and d['verification']['mismatched_lbas'] == list(range(20480, 20480 + 16 * 8, 8))"
check "... random data is compared in every byte: its seed is in the certificate" json "$J" \
	"re.fullmatch('[0-9a-f]{16}', d['sanitization']['random_seed']) and
	 d['verification']['expected'] == \"the last pass's random data, made again from its seed, in every byte\""
disk zer $((40 * MiB)); Z=$DEV
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$Z" --output=c3z --method=clear --progress-fd=3 "$Z" 3> zer.prog > zer.out 2>&1 &
pid=$!
if held $pid zer.out; then
	head -c 4096 /dev/zero | tr '\0' '\125' | dd of="$Z" bs=4096 seek=8192 oflag=direct conv=notrunc 2>/dev/null
else
	bad "zeros: the erase held before the read-back"
fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
check "zeros, 4 KiB of 0x55 planted at byte 8192*4096 before the read-back: exit 1, not erased, LBA 65536 named" \
	rc_json $rc 1 "c3z/erase-$(name "$Z").json" \
	"d['result'] == 'not erased' and d['verification']['mismatched_blocks'] == 1 and d['verification']['mismatched_lbas'] == [65536]"
check "... its progress ends in its verdict, not-erased (never done), as the menu's live table shows it" sh -c \
	"[ \"\$(awk '\$1 == \"erase\" { p = \$3 } END { print p }' zer.prog)\" = not-erased ] && ! grep -q ' done ' zer.prog"

# 4. the key read before the erase: removed at the hold, the certificates still signed
cp k.pem k2.pem
fp=SHA256:$(openssl pkey -in k2.pem -pubout -outform DER | sha256sum | cut -d' ' -f1)
disk key $((16 * MiB)); K=$DEV
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$K" --output=c4 --key=k2.pem "$K" > key.out 2>&1 &
pid=$!
if held $pid key.out; then rm k2.pem; else bad "the key: the erase held before the read-back"; fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
J=c4/erase-$(name "$K").json
check "the key removed during the erase: exit 0, erased, the certificates signed" sh -c \
	"[ ! -e k2.pem ] && grep -q 'each signed' key.out && [ -s $J.sig ] && [ -s c4/erase.json.sig ]"
check "... exit 0, erased" rc_json $rc 0 "$J" "d['result'] == 'erased'"
check "... openssl verifies the disk's and the machine's certificates" sh -c \
	"openssl pkeyutl -verify -pubin -inkey c4/signing-key.pub.pem -rawin -in $J -sigfile $J.sig &&
	 openssl pkeyutl -verify -pubin -inkey c4/signing-key.pub.pem -rawin -in c4/erase.json -sigfile c4/erase.json.sig" >/dev/null
check "... signing_key is SHA256: and the SHA-256 of the public key's DER" json "$J" "d['signing_key'] == '$fp'"
check "... the page names its JSON's SHA-256" grep -q "$(sha "$J")" "c4/erase-$(name "$K").html"
check "... and the machine's page erase.json's" grep -q "$(sha c4/erase.json)" c4/erase.html

# 5. a signal stops the erase within 2 s, with a certificate that says not erased
truncate -s $((1024 * MiB)) "$SHM/big.img"
G=$(losetup -f --show "$SHM/big.img") || { bad "a loop device in /dev/shm"; finish; }
LOOPS="$LOOPS $G"
for sig in INT HUP TERM; do
	"$BB" erase --destroy="$G" --output="c5$sig" --method=clear --pattern=random --passes=8 --progress-fd=3 "$G" \
		3> "prog$sig.txt" > "sig$sig.out" 2>&1 &
	pid=$!
	n=100
	until awk '$3 == "erasing" { f = 1 } END { exit !f }' "prog$sig.txt" 2>/dev/null || [ $n = 0 ]; do sleep 0.05; n=$((n - 1)); done
	t0=$(date +%s%N)
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "SIG$sig during the 8 passes (after a progress line said erasing): gone in ${ms} ms (2 s at most), exit 1" \
		sh -c "[ $n -gt 0 ] && [ $ms -le 2000 ] && [ $rc = 1 ]"
	check "... its certificate: not erased, interrupted, fewer than 8 of 8 passes" json "c5$sig/erase-$(name "$G").json" \
		"d['result'] == 'not erased' and d['sanitization']['interrupted'] is True and
		 d['sanitization']['passes'] < 8 and d['sanitization']['passes_asked'] == 8"
done

# 6. a certificate is never replaced; each run's ID is its own (data put on
# the disk first: a second erase of zeros with zeros would change nothing)
dd if=/dev/urandom of="$O" bs=1M count=1 seek=5 oflag=direct conv=notrunc 2>/dev/null
sum=$(sha odd.img)
refuses "a second erase into the same --output: refused before anything is written" "never replaced" \
	"$BB" erase --destroy="$O" --output=c1 --trim=off --method=clear "$O"
check "... the disk unchanged" [ "$(sha odd.img)" = "$sum" ]
"$BB" erase --destroy="$H" --output=c6 --trim=off --method=clear "$H" > /dev/null 2>&1
check "two runs into two folders: two certificate IDs" python3 -c "import json, sys
a, b = (json.load(open(f))['certificate_id'] for f in sys.argv[1:])
sys.exit(not (a and b and a != b))" "c1h/erase-$(name "$H").json" "c6/erase-$(name "$H").json"

# 7. --progress-fd that is not open
dd if=/dev/urandom of="$H" bs=1M count=1 seek=5 oflag=direct conv=notrunc 2>/dev/null
sum=$(sha half.img)
refuses "--progress-fd=9 with 9 closed" "not an open file descriptor" \
	sh -c 'exec 9>&-; exec "$@"' sh "$BB" erase --destroy="$H" --output=c7 --progress-fd=9 "$H"
check "... nothing written: the disk unchanged, no folder" sh -c "[ '$(sha half.img)' = '$sum' ] && [ ! -e c7 ]"

# 8. every disk at once
disk m1 $((16 * MiB)); M1=$DEV
disk m2 $((16 * MiB)); M2=$DEV
disk m3 $((16 * MiB)); M3=$DEV
"$BB" erase --destroy="$M1,$M2,$M3" --output=c8 --progress-fd=3 "$M1" "$M2" "$M3" 3> prog8.txt > m.out 2>&1
rc=$?
check "three disks in one run: exit 0, erase.json lists the three, erased" rc_json $rc 0 c8/erase.json \
	"sorted(x['media']['device'] for x in d['disks']) == sorted(['$M1', '$M2', '$M3']) and all(x['result'] == 'erased' for x in d['disks'])"
for m in $M1 $M2 $M3; do
	check "... $m's own certificate says erased" json "c8/erase-$(name "$m").json" "d['result'] == 'erased'"
done
check "... every file zero" sh -c "for f in m1 m2 m3; do cmp -s -n $((16 * MiB)) \$f.img /dev/zero || exit 1; done"
check "... the progress file has lines for each disk (erase DISK PHASE PASS PASSES PCT MB_S LEFT ERRORS)" sh -c \
	"[ \"\$(awk 'NF == 9 && \$1 == \"erase\" { print \$2 }' prog8.txt | sort -u | tr '\n' ' ')\" = \
	   \"\$(printf '%s\n' $(name "$M1") $(name "$M2") $(name "$M3") | sort | tr '\n' ' ')\" ]"
# the menu's live table (menu-lib.sh's erase_table) from those lines: a row a disk, inside dialog's 78-column box
( . "$REPO/rootfs/lib/bootbench/menu-lib.sh" 2>/dev/null; erase_table prog8.txt table8.txt )
sed 's/^/    /' table8.txt
check "... the menu's table of them: a header and a row a disk, each line 74 columns at most" sh -c \
	"[ \$(wc -l < table8.txt) = 4 ] && [ \$(awk '{ if (length(\$0) > m) m = length(\$0) } END { print m }' table8.txt) -le 74 ] &&
	 grep -q '^$(name "$M1") *erased *1/1 *100.0%' table8.txt"

# 9. --verify-only: what the disk holds certified, nothing written
disk vz $((32 * MiB)) zero; V=$DEV
sum=$(sha vz.img)
"$BB" erase --verify-only --output=c9 "$V" > vz.out 2>&1
rc=$?
check "--verify-only over zeros: exit 0, erased, found zeros, method verify-only" rc_json $rc 0 \
	"c9/erase-$(name "$V").json" "d['result'] == 'erased' and d['verification']['expected'] == 'zeros' and
	 d['sanitization']['method'] == 'verify-only' and d['verification']['bytes_read'] == $((32 * MiB))"
check "... the disk unchanged" [ "$(sha vz.img)" = "$sum" ]
refuses "--verify-only with --destroy" "leave --destroy out" "$BB" erase --verify-only --destroy="$V" --output=c9x "$V"
disk vr $((16 * MiB)); V=$DEV
sum=$(sha vr.img)
"$BB" erase --verify-only --output=c9r "$V" > vr.out 2>&1
rc=$?
check "--verify-only over random data: exit 1, not erased" rc_json $rc 1 "c9r/erase-$(name "$V").json" "d['result'] == 'not erased'"
check "... the disk unchanged" [ "$(sha vr.img)" = "$sum" ]
disk vo $((16 * MiB)) ones; V=$DEV
"$BB" erase --verify-only --output=c9o "$V" > vo.out 2>&1
rc=$?
check "--verify-only over 0xff: exit 0, erased, found ones (0xff)" rc_json $rc 0 \
	"c9o/erase-$(name "$V").json" "d['result'] == 'erased' and d['verification']['expected'] == 'ones (0xff)'"
disk vp $((16 * MiB)) deadbeef; V=$DEV
"$BB" erase --verify-only --pattern=0xdeadbeef --output=c9p "$V" > vp.out 2>&1
rc=$?
check "--verify-only --pattern=0xdeadbeef over that pattern: exit 0, erased" rc_json $rc 0 \
	"c9p/erase-$(name "$V").json" "d['result'] == 'erased' and 'deadbeef' in d['verification']['expected']"
# 11. a disk whose thread cannot start is not erased (strace makes the
# second clone, the second disk's pthread_create, fail with EAGAIN)
if command -v strace > /dev/null; then
	disk t1 $((16 * MiB)); TA=$DEV
	disk t2 $((16 * MiB)); TB=$DEV
	sum=$(sha t2.img)
	strace -f -o /dev/null -e trace=clone,clone3 -e inject=clone:error=EAGAIN:when=2 \
		"$BB" erase --destroy="$TA,$TB" --method=clear --output=c11 "$TA" "$TB" > t.out 2>&1
	rc=$?
	check "two disks, the second one's thread cannot start: exit 1, erase.json says it is not erased" verdict $rc 1 \
		c11/erase.json "[x['result'] for x in d['disks'] if x['media']['device'] == '$TB'] == ['not erased'] and
		 [x['result'] for x in d['disks'] if x['media']['device'] == '$TA'] == ['erased']"
	check "... its certificate says no thread was started, and it was not written" sh -c \
		"grep -q 'no thread could be started' c11/erase-$(name "$TB").json && [ '$(sha t2.img)' = '$sum' ]"
else
	echo "note: strace is missing (make deps): a disk whose thread cannot start is not checked here"
fi

# 12. leftovers in --output, or a folder that takes no file: refused before anything is written
sum=$(sha odd.img)
mkdir c12a c12b c12c c12d
: > "c12a/erase-$(name "$O").html"
refuses "--output holding an erase-DISK.html: refused" "never replaced" \
	"$BB" erase --destroy="$O" --output=c12a --trim=off --method=clear "$O"
: > c12b/erase.json.sig
refuses "--output holding an erase.json.sig: refused" "never replaced" \
	"$BB" erase --destroy="$O" --output=c12b --trim=off --method=clear "$O"
openssl genpkey -algorithm ed25519 2>/dev/null | openssl pkey -pubout -out c12c/signing-key.pub.pem
refuses "--output holding another key's signing-key.pub.pem, with --key: refused" "another key" \
	"$BB" erase --destroy="$O" --output=c12c --key=k.pem --trim=off --method=clear "$O"
if mount -t tmpfs -o ro tmpfs c12d; then
	refuses "a read-only --output: refused" "cannot be written there" \
		"$BB" erase --destroy="$O" --output=c12d --trim=off --method=clear "$O"
	umount c12d
else
	bad "a read-only tmpfs for --output"
fi
check "... the disk unchanged by the four" [ "$(sha odd.img)" = "$sum" ]

# 13. the output or --progress-fd on the disk being erased: refused, nothing written
refuses "--progress-fd=3 3>the disk being erased: refused" "a disk being erased" \
	sh -c 'exec "$@" 3> "$0"' "$O" "$BB" erase --destroy="$O" --output=c13a --progress-fd=3 --trim=off --method=clear "$O"
refuses "the output (> the disk being erased): refused" "a disk being erased" \
	sh -c 'exec "$@" > "$0"' "$O" "$BB" erase --destroy="$O" --output=c13b --trim=off --method=clear "$O"
check "... the disk unchanged by the two" [ "$(sha odd.img)" = "$sum" ]

# 14. Ctrl-Z and fg (SIGSTOP, SIGCONT) 20 times during an erase: not a failure
"$BB" erase --destroy="$G" --output=c14 --method=clear --pattern=random --passes=2 --progress-fd=3 "$G" \
	3> prog14.txt > stop.out 2>&1 &
pid=$!
n=100
until awk '$3 == "erasing" { f = 1 } END { exit !f }' prog14.txt 2>/dev/null || [ $n = 0 ]; do sleep 0.05; n=$((n - 1)); done
stops=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	kill -STOP $pid 2>/dev/null && stops=$((stops + 1))
	sleep 0.01
	kill -CONT $pid 2>/dev/null
	sleep 0.01
done
wait $pid
rc=$?
[ $stops = 20 ] && [ $rc = 0 ] || echo "    the erase (exit $rc, waited for erasing: $n left): $(tail -n 3 stop.out)"
check "stopped and continued $stops times (20) during the erase: exit 0, erased" verdict $rc 0 \
	"c14/erase-$(name "$G").json" "$stops == 20 and d['result'] == 'erased' and d['failure'] == ''"

# 15. a disk that grows during the erase is not erased: what is past the old end was not read
disk grow $((16 * MiB)); W=$DEV
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$W" --output=c15 --method=clear "$W" > grow.out 2>&1 &
pid=$!
if held $pid grow.out; then
	head -c $((4 * MiB)) /dev/urandom >> grow.img
	losetup -c "$W"
else
	bad "the disk that grows: the erase held before the read-back"
fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
check "4 MiB added to the disk at the hold: exit 1, not erased, it changed size" verdict $rc 1 \
	"c15/erase-$(name "$W").json" "d['result'] == 'not erased' and 'changed size' in d['failure']"

# 16. --verify=sample reads the disk's last MiB whole, whatever its size
SZ=$((40 * MiB + 512))
disk smp $SZ; P=$DEV
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$P" --output=c16 --method=clear --verify=sample "$P" > smp.out 2>&1 &
pid=$!
if held $pid smp.out; then
	python3 -c "import sys; sys.stdout.write(('old data, not erased ' * 30)[:512])" |
		dd of="$P" bs=512 seek=$(((SZ - 8192) / 512)) oflag=direct conv=notrunc 2>/dev/null
else
	bad "the sample: the erase held before the read-back"
fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
check "--verify=sample, 40 MiB + 512 B, 512 B of text planted 8 KiB before the end: exit 1, not erased" verdict $rc 1 \
	"c16/erase-$(name "$P").json" "d['result'] == 'not erased' and d['verification']['mismatched_blocks'] >= 1"

# 17. --verify-only with a one-byte pattern named; a clear's pattern in its certificate
disk v5 $((16 * MiB)) 5a; V=$DEV
"$BB" erase --verify-only --pattern=0x5a --output=c17 "$V" > v5.out 2>&1
rc=$?
check "--verify-only --pattern=0x5a over 0x5a: exit 0, erased, expected names 0x5a" verdict $rc 0 \
	"c17/erase-$(name "$V").json" "d['result'] == 'erased' and '0x5a' in d['verification']['expected']"
"$BB" erase --verify-only --output=c17n "$V" > v5n.out 2>&1
rc=$?
check "... without --pattern: exit 1, not erased, it holds data" verdict $rc 1 \
	"c17n/erase-$(name "$V").json" "d['result'] == 'not erased' and 'holds data' in d['failure']"
disk c5a $((8 * MiB)); C=$DEV
"$BB" erase --destroy="$C" --pattern=0x5a --method=clear --output=c17c "$C" > v5c.out 2>&1
rc=$?
check "a clear of random data with --pattern=0x5a: exit 0, erased, its certificate names the pattern 0x5a (verification.pattern)" \
	verdict $rc 0 "c17c/erase-$(name "$C").json" "d['result'] == 'erased' and d['verification'].get('pattern') == '0x5a'"
"$BB" erase --destroy="$V" --pattern=0x5a --method=clear --output=c17s "$V" > v5s.out 2>&1
rc=$?
check "a clear with --pattern=0x5a of a disk that held 0x5a already: exit 0, erased (old data that is the pattern proves nothing)" \
	verdict $rc 0 "c17s/erase-$(name "$V").json" "d['result'] == 'erased' and d['failure'] == ''"

# 18. markers_written is what was written; a mismatch's LBA is its first differing logical block
disk pur $((16 * MiB)); U=$DEV
sum=$(sha pur.img)
"$BB" erase --destroy="$U" --method=purge --output=c18 "$U" > pur.out 2>&1
check "--method=purge on a loop device: no markers written, the disk unchanged" sh -c \
	"python3 -c \"import json, sys; sys.exit(json.load(open('c18/erase-$(name "$U").json'))['verification']['markers_written'] != 0)\" &&
	 [ '$(sha pur.img)' = '$sum' ]"
BOOTBENCH_ERASE_HOLD=verify "$BB" erase --destroy="$U" --output=c18c --method=clear "$U" > lba.out 2>&1 &
pid=$!
if held $pid lba.out; then
	python3 -c "import sys; sys.stdout.buffer.write(b'DATA' + bytes(508))" |
		dd of="$U" bs=512 seek=7 oflag=direct conv=notrunc 2>/dev/null
else
	bad "the LBA: the erase held before the read-back"
fi
kill -CONT $pid 2>/dev/null
wait $pid
rc=$?
check "4 bytes planted at LBA 7 (byte 3584): exit 1, mismatched_lbas [7], blocks of 4096 bytes counted" verdict $rc 1 \
	"c18c/erase-$(name "$U").json" "d['result'] == 'not erased' and d['verification']['mismatched_lbas'] == [7] and
	 d['verification']['mismatched_blocks'] == 1 and d['verification']['mismatched_block_bytes'] == 4096"
finish
