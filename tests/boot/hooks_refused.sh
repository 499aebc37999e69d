# SPDX-License-Identifier: MIT
# Boot test (issue 36): what stops an unattended run before anything is
# written. Each boot is given the kernel directly, as PXE gives it (the
# third with the stick attached, booted as from it), with two virtio disks of
# random data, bootbench.run=quick on the first with consent for it, results
# on the console, the hooks served over https by the test's nginx:
#   1. hook_before whose SHA-256 is not the one given: one line says so,
#      nothing runs (the hook would print a line), no disk is written;
#   2. hook_before that tries to write the second disk through bootbench
#      (refused: the boot gave no consent for it) and then fails: the run
#      is cancelled, both disks as they were, status.json has its status;
#   3. bad input: an ssh key file with a line that is not a key, an
#      unknown keymap and a results destination that does not exist: one
#      line each on the console, each among the cancelled run's reasons, the
#      destination's in the log saved on the stick, no ssh server, no
#      unattended run (issue 49: bad_boot_parameter.sh's boot, folded in).
# (Good keys on a boot without the pack dropbear is in, the line naming the
# pack: packs_firmware.sh's base-alone boot, issue 49.)
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands nginx openssl python3 ssh-keygen
start_webdav || { bad "nginx starts"; finish; }
mkdir -p "$T/www" "$T/dav/pub"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
cat > "$T/dav/pub/before.sh" <<'HOOK'
echo "HOOK-RAN: consent '$BOOTBENCH_CONSENT_LIMIT'"
bootbench run --name=sneak --rw=write --bs=1M --size=4M --direct=1 --filename=/dev/vdb --destroy=/dev/vdb
echo "bootbench run on vdb: exit status $?"
exit 3
HOOK
good=$(sha256sum "$T/dav/pub/before.sh" | cut -d' ' -f1)
wrong=$(printf '%s' "$good" | tr '0-9a-f' '1-9a0-f')
ssh-keygen -q -t ed25519 -N '' -C fine -f "$T/fine"
printf '%s\n' "$(cat "$T/fine.pub")" "ssh-ed25519 not-base64!" > "$T/dav/pub/badkeys"
for i in 1 2; do test_disk "$T/d$i.img"; done
before=$(cat "$T/d1.img" "$T/d2.img" | sha256sum)
guest() { # extra kernel parameters (a good value given again replaces the default's; a wrong one is
	# refused and named, the default's kept), qemu.sh options
	_p=$1; shift
	boot --kernel "$OUT/vmlinuz" --initrd "$OUT/initramfs.img" --disk virtio:"$T/d1.img" --disk virtio:"$T/d2.img" "$@" \
		--append "console=ttyS0,115200 bootbench.boot=net bootbench.id=$BOOT_ID $ASLR_OFF bootbench.run=quick bootbench.targets=vda \
bootbench.destroy=vda bootbench.scale=0.01 bootbench.save=console bootbench.after=poweroff \
bootbench.ca=http://10.0.2.2:$HTTP_PORT/ca.crt $_p"
}
status_is() { # python expression on status.json from the console
	console_file status.json && json "$T/console-status.json" "$1"
}

if guest "bootbench.hook_before=https://10.0.2.2:$DAV_PORT/pub/before.sh#sha256=$wrong"; then
	check "1: the console says the checksum differs" serial_has "bootbench.hook_before: the script's SHA-256 is $good, not $wrong as given: not run"
	check "1: the run is cancelled" serial_has 'unattended run cancelled: a hook cannot be had or is not the one named; nothing was run or written'
	check "1: the hook did not run" sh -c "! grep -q HOOK-RAN '$T/serial.log'"
	check "1: no run started" sh -c "! grep -q 'run: quick on' '$T/serial.log'"
	check "1: status.json: exit status 2" status_is "d['exit_status'] == 2"
	check "1: no disk was written" [ "$(cat "$T/d1.img" "$T/d2.img" | sha256sum)" = "$before" ]
fi

if guest "bootbench.hook_before=https://10.0.2.2:$DAV_PORT/pub/before.sh#sha256=$good"; then
	check "2: the hook ran" serial_has 'hook_before: exit status 3'
	check "2: the run is cancelled, naming the hook" serial_has 'unattended run cancelled: bootbench.hook_before failed (exit status 3); nothing was run'
	if console_file hook-before.log; then
		check "2: the hook had the boot's consent only" grep -q "^HOOK-RAN: consent '/dev/vda'" "$T/console-hook-before.log"
		check "2: bootbench refused the hook's write to vdb" grep -q 'a hook gets no consent it was not given' "$T/console-hook-before.log"
		check "2: ... with exit status 2" grep -q 'bootbench run on vdb: exit status 2' "$T/console-hook-before.log"
	else
		bad "2: hook-before.log is among the results"
	fi
	check "2: status.json: the hook's status 3, the run's 2" status_is "d['hook_before_status'] == 3 and d['exit_status'] == 2"
	check "2: no disk was written" [ "$(cat "$T/d1.img" "$T/d2.img" | sha256sum)" = "$before" ]
fi

# 3 boots from the stick (the kernel given directly, the stick attached), its results to go to a
# destination that does not exist: that line is in the log saved on the stick too
cp "$OUT/bootbench-usb.img" "$T/stick.img"
if guest "bootbench.ssh_key=https://10.0.2.2:$DAV_PORT/pub/badkeys bootbench.keymap=xx bootbench.boot=usb bootbench.save=floppy" \
	--usb "$T/stick.img"; then
	check "3: the keymap is named as wrong" serial_has "bootbench.keymap=xx: not a keyboard layout of this image (known: us uk de"
	check "3: the key file's bad line is named" serial_has "ssh: bootbench.ssh_key: the fetched file line 2: the key is not base64; no ssh server"
	check "3: the destination is named, with the values it may take" serial_has "bootbench.save: destination 'floppy': expected usb, console, or a URL"
	check "3: no ssh server started" sh -c "! grep -q 'ssh: dropbear on port 22' '$T/serial.log'"
	check "3: no unattended run" serial_has 'unattended run cancelled: wrong boot parameters'
	# each of the three in the cancelling line: the wrong destination alone cancels a run too
	# (bad_boot_parameter.sh had it the only fault)
	for w in "bootbench.keymap=xx" "bootbench.save: destination 'floppy'" "bootbench.ssh_key: the fetched file line 2"; do
		check "3: ... naming $w among its reasons" serial_has "unattended run cancelled: wrong boot parameters (.*$w"
	done
	check "3: no disk was written" [ "$(cat "$T/d1.img" "$T/d2.img" | sha256sum)" = "$before" ]
	if fetch_results "$T/stick.img" > /dev/null; then
		check "3: the log saved on the stick names the wrong destination" grep -q "bootbench.save: destination 'floppy'" "$T/results/console.log"
		check "3: no result JSON was written" sh -c "! ls '$T/results' | grep -q '^vd.*\\.json\$'"
	else
		bad "3: the log was saved on the stick"
	fi
fi

finish
