# SPDX-License-Identifier: MIT
# Boot test (issue 15): a PXE-booted machine (pxelinux.cfg's entry booted
# directly, qemu.sh --direct: pxe.sh tests the loader) with no stick fetches its
# config over HTTP (bootbench.conf=http://.../${mac}.conf, the only
# bootbench parameter beside the boot loader's), runs a scaled quick
# unattended on its NVMe disk, and saves the results to three real servers
# in a network namespace of the test's own, reached at QEMU's gateway
# 10.0.2.2: one export of nfs-ganesha over NFSv4 and over NFSv3 (its MOUNT
# found through rpcbind, nolock), an SMB 3 share (smbd, a password with a comma, quotes and a
# space) and WebDAV over HTTPS (nginx, verified against a CA the config
# names by URL). On each the folder is whole against its manifest and the
# JSON names the disk's serial; the password appears nowhere. The run's
# figures reach a Prometheus Pushgateway (bootbench.metrics=). The run's
# heartbeat (issue 46: FOLDER.heartbeat.json beside the folders), watched
# from here every 0.1 s, is on the NFS share (the first destination) while
# the run goes on, and on no share, nor its temporary file, once the
# results are delivered.
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands nginx smbd ganesha.nfsd rpcbind rpcinfo openssl prometheus-pushgateway
[ "$(id -u)" = 0 ] || skip "needs root (smbd, ganesha)"
private_network
start_rpcbind || { bad "rpcbind starts"; finish; }
start_webdav || { bad "nginx starts"; finish; }
start_smbd || { bad "smbd starts"; finish; }
start_ganesha || { bad "ganesha starts"; finish; }
start_pushgateway || { bad "the Pushgateway starts"; finish; }
mkdir -p "$T/www/bb"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
# QEMU's first NIC is 52:54:00:12:34:56
cat > "$T/www/bb/52-54-00-12-34-56.conf" <<CONF
run=quick
scale=0.02
targets=all
destroy=all
save=console,nfs://10.0.2.2:$NFS_PORT/results/rack1,nfs3://10.0.2.2:$NFS_PORT/results/rack1v3,smb://bench@10.0.2.2:$SMB_PORT/results/rack1,https://bench@10.0.2.2:$DAV_PORT/rack1/
ca=http://10.0.2.2:$HTTP_PORT/ca.crt
save_timeout=60
metrics=http://10.0.2.2:$PUSH_PORT
after=poweroff
credential=smb://bench@10.0.2.2:$SMB_PORT $PASSWORD
credential=https://bench@10.0.2.2:$DAV_PORT $PASSWORD
CONF
cp -r "$OUT/pxe" "$T/tftp"
sed -i '0,/bootbench.boot=net /s//bootbench.boot=net '$ASLR_OFF' bootbench.conf=http:\/\/10.0.2.2:'$HTTP_PORT'\/bb\/${mac}.conf /' \
	"$T/tftp/pxelinux.cfg/default"
truncate -s 2G "$T/nvme.img"
# the Pushgateway read every second while the guest runs: a run that passed and was delivered
# has its group deleted (issue 46), so what it pushed is seen during the run
( while :; do
	curl -s "http://127.0.0.1:$PUSH_PORT/metrics" > "$T/metrics.now" 2>/dev/null &&
		grep -q 'disk="BBNVME1"' "$T/metrics.now" && cp "$T/metrics.now" "$T/metrics-during.txt"
	sleep 1
done ) &
poller=$!
SHARES="$T/nfs/rack1 $T/nfs/rack1v3 $T/smb/rack1 $T/dav/rack1"
( while :; do
	for d in $SHARES; do
		for f in "$d"/*.heartbeat.json; do [ ! -e "$f" ] || echo "${d#$T/} ${f##*/}"; done
	done
	sleep 0.1
done ) > "$T/beats" 2>/dev/null &
watcher=$!
boot --pxe "$T/tftp" --bootfile pxelinux.0 --disk nvme:"$T/nvme.img"
booted=$?
kill $watcher 2>/dev/null
sort -u "$T/beats" | sed 's/^/    heartbeat seen on /'
if [ $booted = 0 ]; then
	check "the config came from the PXE server" serial_has "config: read [0-9]* lines from http://10.0.2.2:$HTTP_PORT/bb/\${mac}.conf"
	check "the run finished" serial_has 'run: quick on /dev/nvme0n1: exit status 0'
	for share in nfs:"$T/nfs/rack1" nfs3:"$T/nfs/rack1v3" smb:"$T/smb/rack1" https:"$T/dav/rack1"; do
		kind=${share%%:*} dir=${share#*:}
		folder=$(ls "$dir" 2>/dev/null)
		check "$kind: one results folder, named <UTC>_<MAC>_<run id>" \
			sh -c "echo '$folder' | grep -qx '20[0-9]*T[0-9]*Z_mac-525400123456_[0-9a-f]\{6\}'"
		check "$kind: every file whole against the manifest" check_manifest "$dir/$folder"
		check "$kind: the JSON names the NVMe disk's serial" grep -q BBNVME1 "$dir/$folder/nvme0n1.json"
		check "$kind: the folder's report.html came along, in the manifest, with the disk and its curves" \
			sh -c "grep -q ' report.html\$' '$dir/$folder/MANIFEST.sha256' && grep -q BBNVME1 '$dir/$folder/report.html' &&
				grep -q 'randread-4k-qd32: completion latency' '$dir/$folder/report.html'"
		check "$kind: the console said it was delivered" serial_has "save: $kind://10.0.2.2:[0-9]*/.*${dir##*/}/*: delivered $folder"
		[ $kind != nfs ] || check "nfs: the run's heartbeat was there while it went on" grep -qx "nfs/rack1 $folder.heartbeat.json" "$T/beats"
		check "$kind: no heartbeat left once delivered (nor its temporary file)" sh -c "! ls -a '$dir' | grep -q heartbeat"
	done
	kill $poller 2>/dev/null
	curl -s "http://127.0.0.1:$PUSH_PORT/metrics" > "$T/metrics.txt"
	check "the Pushgateway had the run while it went on, by machine and disk serial" \
		sh -c "grep '^bootbench_state{' '$T/metrics-during.txt' | grep 'disk=\"BBNVME1\"' | grep -qi 'machine=\"mac-525400123456\"'"
	check "... labelled with the profile" sh -c "grep '^bootbench_info{' '$T/metrics-during.txt' | grep -q 'profile=\"quick\"'"
	check "... with the disk's temperature" grep -q '^bootbench_temperature_celsius{.*disk="BBNVME1"' "$T/metrics-during.txt"
	check "passed and delivered to the shares: its group deleted from the Pushgateway" \
		sh -c "! grep -q 'disk=\"BBNVME1\"' '$T/metrics.txt'"
	check "the password is not on the console" sh -c "! grep -qF 'pa,ss' '$T/serial.log'"
	check "the password is in no result file" sh -c "! grep -rqF 'pa,ss' '$T/nfs' '$T/smb' '$T/dav'"
fi
kill $poller $watcher 2>/dev/null
finish
