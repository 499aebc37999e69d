# SPDX-License-Identifier: MIT
# bootbench erase on loop devices (issue 34): a disk full of random data
# cleared with zeros and read back whole: every byte zero, the markers gone,
# the certificate (JSON, page, per disk and per machine) says "erased", its
# Ed25519 signature checks with openssl pkeyutl and fails for a changed
# byte; a pattern of four bytes, in every byte; NIST's sample: the first and
# last MiB and 10% to 12% of the disk read back; random data, made again
# from its seed (in the certificate) and compared in every byte, the
# markers and the old data gone. A disk this
# machine cannot erase by purge: --method=purge says so and writes
# nothing. Bad input (a method, a pattern, a key that is not Ed25519's, a
# disk not named in --destroy, a file, a mounted one) is one line, exit 2,
# nothing written. Lost and corrupted writes are tests/boot/erase.sh's
# (device-mapper in a guest).
. tests/lib.sh
need_commands losetup openssl python3 mkfs.ext4
cd "$T" || exit 1
openssl genpkey -algorithm ed25519 -out key.pem 2>/dev/null
openssl genpkey -algorithm ed448 -out other.pem 2>/dev/null
disk() { # NAME MiB: a loop device over a file of random data, in $DEV
	head -c "$(($2 * 1048576))" /dev/urandom > "$1.img"
	DEV=$(losetup -f --show "$1.img") || { bad "a loop device for $1"; finish; }
	LOOPS="$LOOPS $DEV"
}
name() { echo "${1#/dev/}"; }

# 1. clear, full read-back, signed
disk a 64; A=$DEV
"$BB" erase --destroy="$A" --output=certs --key=key.pem --operator="Jo Admin" --asset-tag=AT-0042 "$A" > a.out 2>&1
rc=$?
sed 's/^/    /' a.out
check "clear with zeros, full read-back: exit 0, erased" sh -c "[ $rc = 0 ] && grep -q 'erased (clear;' a.out"
check "every byte of the disk is zero now" cmp -s a.img /dev/zero -n 67108864
J=certs/erase-$(name "$A").json
check "the certificate says erased, clear, NIST's fields there" json "$J" \
	"d['result'] == 'erased' and d['sanitization']['category'] == 'clear' and d['operator'] == 'Jo Admin' and
	 d['machine']['asset_tag'] == 'AT-0042' and d['media']['capacity_bytes'] == 67108864 and d['standard'].startswith('NIST SP 800-88')"
check "... with the read-back: all of it, no marker left, the old data gone" json "$J" \
	"(lambda v: v['bytes_read'] == 67108864 and v['markers_left'] == 0 and v['markers_written'] == 3 and
	 v['old_data_blocks_fingerprinted'] >= 60 and v['old_data_blocks_left'] == 0 and v['mismatched_blocks'] == 0)(d['verification'])"
check "the machine's certificate lists the disk" json certs/erase.json "[x['media']['device'] for x in d['disks']] == ['$A']"
check "a page per disk and for the machine" sh -c "grep -q 'Certificate of media sanitization' certs/erase.html &&
	grep -q '<td>erased</td>' certs/erase-$(name "$A").html"
check "openssl verifies the signature with the public key written beside it" \
	openssl pkeyutl -verify -pubin -inkey certs/signing-key.pub.pem -rawin -in "$J" -sigfile "$J.sig"
check "... which is the signing key's" sh -c "openssl pkey -in key.pem -pubout | cmp -s - certs/signing-key.pub.pem"
check "... and the machine's certificate too" \
	openssl pkeyutl -verify -pubin -inkey certs/signing-key.pub.pem -rawin -in certs/erase.json -sigfile certs/erase.json.sig
sed 's/"erased"/"erasex"/' "$J" > changed.json
check "a certificate with a changed byte does not verify" sh -c \
	"! openssl pkeyutl -verify -pubin -inkey certs/signing-key.pub.pem -rawin -in changed.json -sigfile '$J.sig' >/dev/null 2>&1"

# 2. a four-byte pattern, two passes
disk b 32; B=$DEV
"$BB" erase --destroy="$B" --output=certs-b --method=clear --pattern=0xdeadbeef --passes=2 "$B" > b.out 2>&1
check "a pattern, two passes: erased" json "certs-b/erase-$(name "$B").json" \
	"d['result'] == 'erased' and d['sanitization']['passes'] == 2 and d['verification']['mismatched_blocks'] == 0"
check "... every four bytes deadbeef" sh -c "[ \"\$(od -An -tx1 -v b.img | tr -d ' \n' | sed 's/deadbeef//g')\" = '' ]"

# 3. NIST's sample
disk c 256; C=$DEV
"$BB" erase --destroy="$C" --output=certs-c --verify=sample "$C" > c.out 2>&1
check "sampled read-back: erased, 10% to 12% of the disk read" json "certs-c/erase-$(name "$C").json" \
	"d['result'] == 'erased' and 0.10 <= d['verification']['share_read'] <= 0.12 and d['verification']['method'].startswith('sample')"

# 4. random data: made again from its seed and read back byte for byte
disk d 32; D=$DEV
"$BB" erase --destroy="$D" --output=certs-d --pattern=random "$D" > d.out 2>&1
check "random data: erased, every byte the seed's stream, the markers and the old data gone" json "certs-d/erase-$(name "$D").json" \
	"d['result'] == 'erased' and d['verification']['markers_left'] == 0 and d['verification']['old_data_blocks_left'] == 0
	 and d['verification']['bytes_read'] == 33554432 and d['verification']['mismatched_blocks'] == 0
	 and d['verification']['expected'] == \"the last pass's random data, made again from its seed, in every byte\"
	 and re.fullmatch('[0-9a-f]{16}', d['sanitization']['random_seed'])"

# 5. purge on a loop device: not offered, nothing written
disk e 16; E=$DEV
sum=$(sha256sum < e.img)
"$BB" erase --destroy="$E" --output=certs-e --method=purge "$E" > e.out 2>&1
rc=$?
check "--method=purge where the drive offers none: exit 1, not erased, said why" sh -c \
	"[ $rc = 1 ] && grep -q 'not erased' e.out && grep -q 'offers no purge' e.out"
check "... and nothing written to it" [ "$(sha256sum < e.img)" = "$sum" ]
"$BB" erase --destroy="$E" --output=certs-e2 --method=nvme-format-user "$E" > e2.out 2>&1
check "a named NVMe method on a loop device: exit 1, not offered, nothing written" sh -c \
	"[ $? = 1 ] && grep -q 'nvme-format-user is not offered by the drive' e2.out && [ \"\$(sha256sum < e.img)\" = '$sum' ]"

# 6. bad input: one line, exit 2, nothing written
refuses "an unknown method" "--method=shred: expected auto, purge" "$BB" erase --destroy="$E" --output=x --method=shred "$E"
refuses "an unknown pattern" "--pattern=0xabc: expected zero, one, random" "$BB" erase --destroy="$E" --output=x --pattern=0xabc "$E"
refuses "a key that is not Ed25519's" "is not an Ed25519 private key" "$BB" erase --destroy="$E" --output=x --key=other.pem "$E"
check "... and the key's content is not shown" sh -c "! '$BB' erase --destroy='$E' --output=x --key=other.pem '$E' 2>&1 | grep -q \"\$(sed -n 2p other.pem | cut -c1-20)\""
refuses "a disk not named in --destroy" "name it in --destroy" "$BB" erase --output=x "$E"
refuses "a file" "is not a block device" "$BB" erase --destroy="$T/e.img" --output=x "$T/e.img"
refuses "no --output" "--output=DIR is needed" "$BB" erase --destroy="$E" "$E"
mkfs.ext4 -q "$E" && mkdir -p mnt
sum=$(sha256sum < e.img)
mount -o ro "$E" mnt	# read-only: the kernel writes nothing to it either
refuses "a mounted disk" "mounted" "$BB" erase --destroy="$E" --output=x "$E"
umount mnt
check "... nothing written to it" [ "$(sha256sum < e.img)" = "$sum" ]
check "no certificate written for bad input" [ ! -e x ]
finish
