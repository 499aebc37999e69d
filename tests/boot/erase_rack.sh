# SPDX-License-Identifier: MIT
# Boot test (issue 34): an unattended erase over PXE (pxelinux.cfg's entry
# booted directly, qemu.sh --direct: pxe.sh tests the loader and its TFTP).
# A machine with three disks full of random data (virtio, NVMe, SCSI) and no stick fetches its
# config over HTTP (bootbench.conf=...${mac}.conf): bootbench.run=erase on
# every disk, NIST's sampled read-back, the operator's name, the signing
# key over HTTPS (verified against the CA the config names), results to
# WebDAV over HTTPS (nginx). The share gets one whole results folder: a
# certificate per disk, each erased and signed (openssl verifies each), the
# machine's certificate naming all three, status.json with exit status 0;
# the console has a line per disk; the cleared disks read as zeros on the
# host and no marker is left on any; the key is in no result file.
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands nginx openssl python3
start_webdav || { bad "nginx starts"; finish; }
mkdir -p "$T/www/bb" "$T/dav/pub"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
openssl genpkey -algorithm ed25519 -out "$T/dav/pub/erase-key.pem" 2>/dev/null
cat > "$T/www/bb/52-54-00-12-34-56.conf" <<CONF
run=erase
targets=all
destroy=all
erase=auto
erase_verify=sample
erase_key=https://10.0.2.2:$DAV_PORT/pub/erase-key.pem
erase_operator=Rack Operator
ca=http://10.0.2.2:$HTTP_PORT/ca.crt
save=https://bench@10.0.2.2:$DAV_PORT/erasures/
save_timeout=60
after=poweroff
credential=https://bench@10.0.2.2:$DAV_PORT $PASSWORD
CONF
cp -r "$OUT/pxe" "$T/tftp"
sed -i '0,/bootbench.boot=net /s//bootbench.boot=net '$ASLR_OFF' bootbench.conf=http:\/\/10.0.2.2:'$HTTP_PORT'\/bb\/${mac}.conf /' \
	"$T/tftp/pxelinux.cfg/default"
for d in v n s; do head -c 64M /dev/urandom > "$T/$d.img"; done
if boot --pxe "$T/tftp" --bootfile pxelinux.0 --disk virtio:"$T/v.img" --disk nvme:"$T/n.img" --disk scsi:"$T/s.img"; then
	for disk in vda nvme0n1 sda; do
		check "the console says $disk was erased" sh -c "tr -d '\r' < '$T/serial.log' | grep -q '^erase: /dev/$disk serial BB[A-Z]*[0-9]: erased ('"
	done
	folder=$(ls "$T/dav/erasures" 2>/dev/null)
	R=$T/dav/erasures/$folder
	check "one results folder on the WebDAV share" [ "$(echo "$folder" | wc -w)" = 1 ]
	check "... whole against its manifest" check_manifest "$R"
	check "the machine's certificate: three disks, each erased, sampled, by the operator" json "$R/erase.json" \
		"sorted(x['media']['device'] for x in d['disks']) == ['/dev/nvme0n1', '/dev/sda', '/dev/vda'] and
		 all(x['result'] == 'erased' and x['verification']['method'].startswith('sample') and x['operator'] == 'Rack Operator'
		     for x in d['disks'])"
	check "the NVMe disk purged, the others cleared" json "$R/erase.json" \
		"{x['media']['device']: x['sanitization']['category'] for x in d['disks']} ==
		 {'/dev/nvme0n1': 'purge', '/dev/sda': 'clear', '/dev/vda': 'clear'}"
	for c in erase erase-vda erase-nvme0n1 erase-sda; do
		check "$c.json verifies with the key's public half" sh -c \
			"openssl pkey -in '$T/dav/pub/erase-key.pem' -pubout > '$T/pub.pem' &&
			 openssl pkeyutl -verify -pubin -inkey '$T/pub.pem' -rawin -in '$R/$c.json' -sigfile '$R/$c.json.sig' >/dev/null"
	done
	check "status.json: the erase's exit status 0" json "$R/status.json" "d['run'] == 'erase' and d['exit_status'] == 0"
	check "the cleared disks read as zeros" sh -c "cmp -s -n 67108864 '$T/v.img' /dev/zero && cmp -s -n 67108864 '$T/s.img' /dev/zero"
	check "no marker is left on any disk" sh -c "! grep -q BOOTBENCH-ERASE-MARKER '$T/v.img' '$T/n.img' '$T/s.img'"
	check "the private key is in no result file" sh -c "! grep -rqF \"\$(sed -n 2p '$T/dav/pub/erase-key.pem')\" '$T/dav/erasures'"
fi
finish
