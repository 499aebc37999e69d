# SPDX-License-Identifier: MIT
# Guest check (tests/boot/shared_guest_erase.sh; issue 34): bootbench
# erase in a guest booted from the stick (its signing key put there by this
# check's prepare; its disks the guest's first nine, in the places their
# names and serials below say),
# over disks full of random data: the menu's entry (a wrong serial ending
# writes nothing, the right one erases), then on the serial console's shell:
#   - NVMe, --method=auto, sampled read-back, signed with a key on the
#     stick: the strongest purge QEMU's controller offers runs (a Format
#     with Secure Erase Settings), the certificate names the command and,
#     in its words, the methods not offered; erased; an explicit Sanitize,
#     which QEMU 7.2 does not offer, is refused before anything is written;
#   - virtio, clear, every byte read back: erased; SCSI, auto, sampled:
#     QEMU refuses SANITIZE (said in its sense data's words), then cleared:
#     erased; SATA (AHCI), auto: its IDENTIFY offers no ATA purge (said),
#     cleared: erased;
#   - device-mapper over the virtio disk dropping one 4 KiB write
#     (dm-flakey drop_writes at LBA 10000) and corrupting another
#     (corrupt_bio_byte at LBA 20000): not erased, those two LBAs named;
#   - the boot stick and a mounted disk refused, exit 2, their checksums
#     unchanged.
#   - device-mapper's error target under 8 sectors (LBA 10000): the clear
#     goes past them, writes the rest, and says "not erased: 8 block(s)
#     could not be written", LBA 10000 first (issue 43);
#   - four NVMe disks whose writes QEMU holds to 2 MiB/s each, so that
#     they are independent: erased at once (each began before any
#     ended, by their certificates), the time against one alone shown;
#     --progress-fd has lines of all four; then the menu erases
#     them, its live table (4 disks) captured and fitting 80x24;
#   - Ctrl-C during a throttled pass: the erase ends within 2 s of it (its
#     writes in flight held to half a second of the disk's rate), "not
#     erased", interrupted, 0 passes written of 1.
# On the host: the NVMe certificates, read off the stick, verify with
# openssl pkeyutl against the public key written beside them; a changed
# byte does not.
# screen: 160x50
# timeout: 600
. tests/bootlib.sh
if [ "${1:-}" = prepare ]; then
	need_commands mcopy openssl mkfs.ext4
	openssl genpkey -algorithm ed25519 -out "$GUEST/erase-key.pem" 2>/dev/null
	mcopy -i "$GUEST/stick.img@@1M" "$GUEST/erase-key.pem" ::/erase-key.pem
	for d in v s n a; do head -c 64M /dev/urandom > "$GUEST/erase_disks-$d.img"; done
	truncate -s 32M "$GUEST/erase_disks-m.img" && mkfs.ext4 -q -F "$GUEST/erase_disks-m.img"
	# four NVMe disks, each's writes held to 2 MiB/s (the fixture's): 16 s a pass alone, so
	# that the guest's own work (which TCG stretches on a loaded host) is small beside it
	for k in 1 2 3 4; do truncate -s 32M "$GUEST/erase_disks-p$k.img"; done
	exit 0
fi
guest_attach
need_commands tmux mcopy python3 openssl
step "the menu is on the screen" "Esc goes back" 30
# 0. the menu's entry: the virtio disk, clear, sampled; a wrong serial ending first
menu_pick 6
step "Erase lists the disks that may be written" "Erase: disks" 30
keys v Space Enter
step "it asks how" "Erase: how" 30
fits "the erase's methods"
keys c Enter
step "it asks for the read-back" "Erase: read-back" 30
keys s Enter
step "it asks for the serial's last four characters" "the last four characters of its serial (BBVIRTIO1)" 30
fits "the erase's confirmation"
keys XXXX Enter
step "a wrong one: nothing written" "Not confirmed for vda: nothing was written." 30
keys Enter
# each screen awaited as in the first pass: keys typed before a dialog has
# started are dropped (seen under load: the menu was back, the keys gone)
step "... back at the menu" "Esc goes back" 60
menu_pick 6
step "... Erase again" "Erase: disks" 30
keys v Space Enter
step "... how" "Erase: how" 30
keys c Enter
step "... read-back" "Erase: read-back" 30
keys s Enter
step "asked again" "the last four characters of its serial (BBVIRTIO1)" 30
keys TIO1 Enter
step "the disk is erased and said so" "erased (clear;" 120
fits "the erase's result (issue 48)"
keys Enter
# the system's description is written into the run's folder before the menu is back
step "the menu is back" "Esc goes back" 60
sleep 2	# dialog drops what is typed while it starts
keys 7 Enter
step "the shell is reached" "Type 'exit' to return to the menu." 30
type_line "clear; S=\$(grep -l BBSCSI /sys/block/sd*/device/vpd_pg80 | cut -d/ -f4); S=/dev/\$S; A=\$(grep -l BBSATA /sys/block/sd*/device/vpd_pg80 | cut -d/ -f4); A=/dev/\$A; ST=\$(bootbench disks --media | head -n1); echo FOUND=\$(ls /dev/vda /dev/vdb /dev/nvme0n1 \$S \$A \$ST | wc -l)"
step_result "the disks and the stick are there" FOUND "FOUND=6" 30
# a figure a drive does not report is said so, never 0 (issue 48): QEMU's SCSI disk has no temperature
type_line "clear; COLUMNS=150 bootbench disks \$S | grep -o 'health: .*'; bootbench disks --json \$S | grep -o '\"temperature_c\" : [a-z0-9]*'; echo TEMP=\$((40 + 2))"
step_result "the SCSI disk's health read" TEMP "TEMP=42" 30
check "... its temperature not reported, as words" shows "health: *SMART [a-z ]*, temperature not reported"
check "... and as null in the JSON" shows '"temperature_c" : null'
# QEMU's NVMe fills in no spare, no threshold and no wear: its spare and wear are not reported, not 0%
type_line "clear; COLUMNS=150 bootbench disks /dev/nvme0n1 | grep -o 'health: .*'; bootbench disks --json /dev/nvme0n1 | grep -oE '\"(available_spare_pct|percentage_used)\" : [a-z0-9]*'; echo SPARE=\$((40 + 2))"
step_result "the NVMe disk's health read" SPARE "SPARE=42" 30
check "... its spare and wear not reported, as words" shows "health: .*, wear not reported, spare not reported,"
check "... and as null in the JSON" shows '"available_spare_pct" : null'
check "... the wear too" shows '"percentage_used" : null'

# 1. NVMe: auto, sampled, signed
type_line "clear; bootbench erase --destroy=/dev/nvme0n1 --output=/media/bootbench/erase-nvme --verify=sample --key=/media/bootbench/erase-key.pem --operator='Test Operator' /dev/nvme0n1 > /tmp/n.log 2>&1; rc=\$?; tail -n 3 /tmp/n.log; grep -o '\"method\" : \"[a-z-]*\"' /media/bootbench/erase-nvme/erase-nvme0n1.json; echo NV=\$rc"
step_result "NVMe, auto: erased by a purge, exit 0" NV "erased (nvme-format-" 300
check "... the certificate says which command ran" shows "NVMe Format NVM, Secure Erase Settings"
type_line "clear; sha256sum /dev/nvme0n1 > /tmp/n.sum; bootbench erase --destroy=/dev/nvme0n1 --output=/tmp/ns --method=nvme-sanitize-crypto /dev/nvme0n1 > /tmp/ns.log 2>&1; rc=\$?; tail -n 2 /tmp/ns.log; sha256sum -c /tmp/n.sum >/dev/null && echo UNCHANGED; echo NS=\$rc"
step_result "an explicit Sanitize QEMU does not offer: exit 1, nothing written" NS "UNCHANGED" 120
check "... said as not offered, in the controller's terms" shows "nvme-sanitize-crypto is not offered by the drive: the controller does not offer Sanitize's crypto erase (SANICAP)"

# 2. virtio, clear, full; SCSI, clear, sampled
type_line "clear; bootbench erase --destroy=/dev/vda --output=/tmp/v --method=clear /dev/vda > /tmp/v.log 2>&1; rc=\$?; tail -n 2 /tmp/v.log; cmp -n 67108864 /dev/vda /dev/zero && echo ZEROS; echo VD=\$rc"
step_result "virtio, clear, every byte read back: erased, all zeros, exit 0" VD "ZEROS" 300
type_line "clear; bootbench erase --destroy=\$S --output=/tmp/s --verify=sample \$S > /tmp/s.log 2>&1; rc=\$?; tail -n 2 /tmp/s.log; grep -o 'scsi-sanitize-crypto refused: [^;]*' /tmp/s/erase-\${S#/dev/}.json; echo SD=\$rc"
step_result "SCSI, auto, sampled: QEMU refuses SANITIZE, cleared instead: exit 0" SD "SD=0" 300
check "... the refusal in the drive's words" shows "scsi-sanitize-crypto refused: SANITIZE (crypto erase): ILLEGAL REQUEST, ASC/ASCQ 20h/00h INVALID COMMAND OPERATION CODE"
type_line "clear; bootbench erase --destroy=\$A --output=/tmp/a --verify=sample \$A > /tmp/a.log 2>&1; rc=\$?; tail -n 2 /tmp/a.log; grep -o 'ata-security-erase: [^;\"]*' /tmp/a/erase-\${A#/dev/}.json; echo AD=\$rc"
step_result "SATA, auto: no ATA purge QEMU's disk offers, cleared instead: exit 0" AD "AD=0" 300
check "... what it does not offer, from its IDENTIFY" shows "ata-security-erase: the drive does not offer the Security feature set (IDENTIFY word 82)"
check "... and cleared" shows "erased (clear;"

# 3. lost and corrupted writes under the erase
type_line "clear; dd if=/dev/urandom of=/dev/vda bs=1M count=16 conv=fsync 2>/dev/null; printf '0 10000 linear /dev/vda 0\n10000 8 flakey /dev/vda 10000 0 1 1 drop_writes\n10008 9992 linear /dev/vda 10008\n20000 8 flakey /dev/vda 20000 0 1 5 corrupt_bio_byte 100 w 1 0\n20008 12760 linear /dev/vda 20008\n' | dmsetup create lossy && dmsetup mknodes; bootbench erase --destroy=/dev/mapper/lossy --output=/tmp/l --method=clear /dev/mapper/lossy > /tmp/l.log 2>&1; rc=\$?; tail -n 2 /tmp/l.log; grep -A3 mismatched_lbas /tmp/l/erase-dm-0.json | tr -d ' \n'; echo; echo LD=\$rc"
step_result "writes dropped and corrupted: not erased, exit 1" LD "LD=1" 300
# dm-flakey's corrupt_bio_byte changes the buffer it was given, in place: the clear writes that
# buffer again later (it is filled once a pass), so a third LBA may be named after these two
check "... the two LBAs named first" shows '"mismatched_lbas":\[10000,20000[],]'
check "... said not erased" shows "not erased"

# 3b. blocks the disk will not write: the clear goes past them and counts them
type_line "clear; dmsetup remove lossy; printf '0 10000 linear /dev/vda 0\n10000 8 error\n10008 121064 linear /dev/vda 10008\n' | dmsetup create bad && dmsetup mknodes; bootbench erase --destroy=/dev/mapper/bad --output=/tmp/b --method=clear --trim=off /dev/mapper/bad > /tmp/b.log 2>&1; rc=\$?; tail -n 3 /tmp/b.log | cut -c1-150; grep -o '\"blocks_not_written\" : [0-9]*' /tmp/b/erase-dm-*.json; grep -A2 lbas_not_written /tmp/b/erase-dm-*.json | tr -d ' \n'; echo; dd if=/dev/mapper/bad bs=1M skip=60 count=4 2>/dev/null | cmp -s -n 4194304 - /dev/zero && echo TAIL-ZERO; echo BD=\$rc"
step_result "8 sectors the disk refuses: the pass goes on, not erased, exit 1" BD "BD=1" 300
check "... the rest of the disk written (its last MiBs zero)" shows "TAIL-ZERO"
check "... 8 blocks counted" shows '"blocks_not_written" : 8'
check "... the first named" shows '"lbas_not_written":\[10000,10001'
check "... said in one line" shows "not erased: 8 block(s) could not be written"

# 3c. every disk at once: four disks held to 2 MiB/s each, each begun before any ended
type_line "clear; dmsetup remove bad; P=''; for b in /sys/block/nvme*; do case \$(cat \$b/device/serial) in BBNVME[6789]*) P=\"\$P /dev/\${b##*/}\";; esac; done; set -- \$P; D=\$(echo \$P | tr ' ' ','); echo SLOW=\$#"
step_result "the four slow NVMe disks are there" SLOW "SLOW=4" 30
type_line "clear; t0=\$(cut -d' ' -f1 /proc/uptime); bootbench erase --destroy=\$1 --output=/tmp/p1 --method=clear --verify=sample --trim=off \$1 > /tmp/p1.log 2>&1; r1=\$?; t1=\$(cut -d' ' -f1 /proc/uptime); bootbench erase --destroy=\$D --output=/tmp/p4 --method=clear --verify=sample --trim=off --progress-fd=3 \$P 3>/tmp/p4.progress > /tmp/p4.log 2>&1; r4=\$?; t4=\$(cut -d' ' -f1 /proc/uptime); grep -c '^erase: .*: erased (clear' /tmp/p4.log; awk '{print \$2}' /tmp/p4.progress | sort -u | wc -l | sed 's/^/PROGRESS-DISKS=/'; awk -v a=\$t0 -v b=\$t1 -v c=\$t4 'BEGIN { printf \"one %.1f s, four %.1f s, ratio %.2f\\n\", b - a, c - b, (c - b) / (b - a)}'; echo PAR=\$r1\$r4"
step_result "one disk alone, then four together: both exit 0" PAR "PAR=00" 400
check "... --progress-fd had lines of all four" shows "PROGRESS-DISKS=4"
screen | grep -m1 "^one .* s, four" | sed 's/^/    measured: /'
# at once, not one after another: each disk's erase began before any ended
# (its certificate's times; the ratio to one alone is shown, not judged: a
# wall-clock bound held at 1.2x on a quiet host, reached 1.32 beside
# stress-ng, and one after another would be 4x)
type_line "clear; S=\$(grep -ho '\"started\" : \"[^\"]*\"' /tmp/p4/erase-*.json | cut -d'\"' -f4 | sort); E=\$(grep -ho '\"ended\" : \"[^\"]*\"' /tmp/p4/erase-*.json | cut -d'\"' -f4 | sort); echo \"\$S\" | wc -l | sed 's/^/STARTED=/'; awk -v s=\$(echo \"\$S\" | tail -n1) -v e=\$(echo \"\$E\" | head -n1) 'BEGIN { print (s < e ? \"OVERLAP-OK\" : \"OVERLAP-NO \" s \" \" e) }'; echo OV=\$((0))"
step_result "the four certificates read" OV "OV=0" 30
check "... four of them" shows "STARTED=4"
check "... four erased at once: each began before any ended" shows "OVERLAP-OK"

# 3d. Ctrl-C during a throttled pass: writing stops, not erased, the passes written said
type_line "clear; bootbench erase --destroy=\$1 --output=/tmp/cc --method=clear \$1 > /tmp/cc.log 2>&1 & p=\$!; sleep 3; t0=\$(cut -d' ' -f1 /proc/uptime); kill -INT \$p; wait \$p; rc=\$?; t1=\$(cut -d' ' -f1 /proc/uptime); awk -v a=\$t0 -v b=\$t1 'BEGIN { printf \"ended %.1f s after the signal\\n\", b - a; print (b - a <= 2 ? \"STOP-FAST\" : \"STOP-SLOW\") }'; grep -o '\"passes\" : [0-9]*\\|\"interrupted\" : [a-z]*\\|\"result\" : \"[a-z ]*\"' /tmp/cc/erase-*.json | tr '\\n' ' '; echo; echo CC=\$rc"
step_result "Ctrl-C during a throttled pass: exit 1" CC "CC=1" 60
check "... it ended within 2 s of the signal" shows "STOP-FAST"
screen | grep -m1 "after the signal" | sed 's/^/    measured: /'
check "... the certificate: not erased, interrupted, 0 passes written" shows '"passes" : 0 "interrupted" : true "result" : "not erased"'

# 4. the stick and a mounted disk: refused, nothing written
type_line "clear; sha256sum \$ST > /tmp/st.sum; bootbench erase --destroy=\$ST --output=/tmp/x \$ST; rc=\$?; sha256sum -c /tmp/st.sum >/dev/null && echo STICK-UNCHANGED; echo ST=\$rc"
step_result "the boot stick: refused, exit 2, unchanged" ST "STICK-UNCHANGED" 120
check "... exit 2" shows "ST=2"
type_line "clear; mkdir -p /tmp/m; if mount -t ext4 -o ro /dev/vdb /tmp/m; then sha256sum /dev/vdb > /tmp/m.sum; bootbench erase --destroy=/dev/vdb --output=/tmp/x /dev/vdb; rc=\$?; sha256sum -c /tmp/m.sum >/dev/null && echo MOUNTED-UNCHANGED; umount /tmp/m; else rc=99; fi; echo MT=\$rc"
step_result "a mounted disk: refused, exit 2, unchanged" MT "MOUNTED-UNCHANGED" 120
check "... exit 2" shows "MT=2"
# the guest runs on: the stick is read here once the guest has synced it
type_line "clear; sync; echo SYNCED=\$((0))"
step_result "the disks synced" SYNCED "SYNCED=0" 60
type_line "exit"
step "back in the menu" "Esc goes back" 30

# 5. the certificates, on the host
mcopy -s -n -i "$GUEST/stick.img@@1M" ::/erase-nvme "$T/" 2>/dev/null
C=$T/erase-nvme
check "the NVMe certificate is on the stick, signed" sh -c "[ -s '$C/erase-nvme0n1.json' ] && [ -s '$C/erase-nvme0n1.json.sig' ]"
check "... erased by a Format with Secure Erase Settings, sampled, the Sanitize not offered said" json "$C/erase-nvme0n1.json" \
	"d['result'] == 'erased' and d['sanitization']['category'] == 'purge' and 'Secure Erase Settings' in d['sanitization']['command']
	 and 'SANICAP' in d['sanitization']['not_used'] and d['verification']['method'].startswith('sample')
	 and d['verification']['markers_left'] == 0 and d['operator'] == 'Test Operator' and d['media']['serial'] == 'BBNVME3'"
check "openssl verifies it with the public key beside it" \
	openssl pkeyutl -verify -pubin -inkey "$C/signing-key.pub.pem" -rawin -in "$C/erase-nvme0n1.json" -sigfile "$C/erase-nvme0n1.json.sig"
check "... the key on the stick's" sh -c "openssl pkey -in '$GUEST/erase-key.pem' -pubout | cmp -s - '$C/signing-key.pub.pem'"
sed 's/"erased"/"Erased"/' "$C/erase-nvme0n1.json" > "$T/changed.json"
check "a changed byte does not verify" sh -c \
	"! openssl pkeyutl -verify -pubin -inkey '$C/signing-key.pub.pem' -rawin -in '$T/changed.json' -sigfile '$C/erase-nvme0n1.json.sig' >/dev/null 2>&1"
finish
