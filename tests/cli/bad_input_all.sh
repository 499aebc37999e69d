# SPDX-License-Identifier: MIT
# Every subcommand against bad input, as rows: wrong types, negative and
# huge numbers, empty strings, devices that are missing or not there,
# folders where files are expected and files where devices are. Each row:
# exit status 2, one line on stderr naming what is wrong, nothing on
# stdout, and nothing written (the scratch folder's files and the loop
# device's checksum unchanged). `run`'s own table is bad_input.sh. The
# rows after sysinfo's are what the one parser (lib/args.c) catches for
# every command: an unknown flag, a flag without its value or with one it
# does not take, a flag given twice.
. tests/lib.sh
cd "$T" || exit 1
loopdev dev "$T/disk.img" 16M
dd if=/dev/urandom of="$dev" bs=1M count=16 status=none oflag=direct
printf 'a file' > file.dat
mkdir -p folder results
printf '{"fio version": "x", "jobs": []}' > results/r.json
state() { find . -type f | sort | xargs sha256sum; }
before_ls=$(state)
before_sum=$(sha256sum "$dev" | cut -d' ' -f1)
rows=0

# subcommand | arguments | what stderr must say
while IFS='|' read -r sub args want; do
	[ -z "$sub" ] && continue
	rows=$((rows + 1))
	eval "set -- $args"
	refuses "$sub $args" "$want" "$BB" "$sub" "$@"
done <<ROWS
profile|nosuch $dev|no profile 'nosuch'
profile|quick|name at least one target
profile|quick /nonexistent/disk|/nonexistent/disk
profile|quick --destroy= $dev|option 'destroy'
profile|quick --duration=-5 $dev|--duration
profile|quick --duration=99999999999999999999 $dev|--duration
profile|quick --output=file.dat $dev|is not a directory
profile|quick --destroy=$dev folder|folder
profile|--show|--show
raid|--destroy=$dev $dev|needs at least 2 disks, 1 given
raid|--levels=7 --destroy=$dev,$dev $dev $dev|
raid|--levels= --destroy=$dev $dev file.dat|
raid|--chunk=-1 --destroy=$dev $dev file.dat|
raid|--profile=nosuch --destroy=$dev $dev /dev/null|
raid|--ashift=99 --zfs=mirror --destroy=$dev $dev $dev|
burnin|--components=|--components= is empty
burnin|--components=disk|unknown component 'disk'
burnin|--duration=-1m|--duration=-1m
burnin|--duration=99999999999999999999|--duration
burnin|--duration=31d|expected a time from 10s to 30d
burnin|--limits=memory_fraction=0.99|memory_fraction=0.99: expected a number from 0.1 to 0.95
burnin|--limits=memory_ce_max=abc|memory_ce_max=abc
burnin|--limits==1|unknown limit ''
burnin|--output=file.dat|is not a directory
burnin|--output=/nonexistent|is not a directory
burnin|--iperf=|--iperf= is empty
burnin|--iperf='h;reboot'|expected HOST[:PORT]
burnin|--iperf=-h|expected HOST[:PORT]
burnin|--iperf=host:99999|expected HOST[:PORT]
parity|--disks=0|--disks
parity|--disks=-3|--disks
parity|--disks=999999999999|--disks
parity|--disks=abc|--disks
parity|--json --disks=|--disks
save|ftp://host/x folder|unknown scheme 'ftp'
save|usb|
save|--timeout=-1 usb folder|--timeout
save|--timeout=99999999999 usb folder|--timeout
save|smb://host/share folder|
save|https://[::1 folder|
save|usb file.dat|
save|--check|
fetch-config|gopher://x/y out.conf|
fetch-config||
fetch-config|http://pxe/x.conf folder|is a folder
fetch-config|http://pxe/x.conf nodir/x.conf|is not there
fetch-config|http:// out.conf|expected SCHEME://HOST[:PORT]/PATH
fetch-config|'http://10.0.2.2/\${colour}' out.conf|colour
chroot|--write=$dev|
chroot|/nonexistent/root|/nonexistent/root
chroot|file.dat|file.dat
chroot|--repair=everything folder|--repair
chroot|--open=|--open
fsck||
fsck|/nonexistent/dev|/nonexistent/dev
fsck|file.dat|file.dat
fsck|folder|folder
fsck|--repair $dev|$dev
fio-server|--port=0|--port
fio-server|--port=70000|--port
fio-server|--port=http|--port
fio-server|--listen=not-an-ip|expected an IPv4 or IPv6 address
fio-server|--destroy=/nonexistent/dev|/nonexistent/dev
fio-server|--read=file.dat|file.dat is not a block device
fio-server|--fio=folder|--fio=folder: not a program
report|--output=folder results|is a folder
report|folder/missing.json|folder/missing.json
report|$dev|neither a result folder nor a JSON file
report||no result folder
report|--output= results|--output
compare|--by=|--by
compare|--format=|--format
compare|folder|no results found
compare|/nonexistent/results|/nonexistent/results
disks|/nonexistent/dev|/nonexistent/dev
disks|--colour|
sysinfo|--colour|
disks|--identity|--identity needs a value
disks|--identity=/nonexistent/dev|/nonexistent/dev
sysinfo|--json=yes|--json takes no value
inventory|--json=yes|--json takes no value
inventory|--output=file.dat|--output=file.dat: not a folder
inventory|--output|--output needs a value
inventory|now|unknown argument 'now'
compare|--inventory folder|no inventory.json
compare|--inventory --inventory results|--inventory given twice
chroot|--list --list|--list given twice
compare|--by=model --by=machine results|--by given twice
report|--frobnicate results|unknown option '--frobnicate'
fsck|--repair=yes $dev|--repair takes no value
save|--timeout usb folder|--timeout needs a value
fio-server|--port=1 --port=2|--port given twice
parity|--disks=4 --disks=5|--disks given twice
raid|--resync=1 --destroy=$dev $dev $dev|--resync takes no value
profile|quick --output|--output needs a value
fetch-config|--print-url=x http://pxe/x.conf|--print-url takes no value
help|nosuch|nosuch
version|extra|extra
ROWS

check "the table has its rows ($rows)" [ $rows -gt 50 ]
check "no file was created or changed" [ "$(state)" = "$before_ls" ]
check "the device is unchanged" [ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$before_sum" ]
finish
