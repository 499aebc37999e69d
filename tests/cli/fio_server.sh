# SPDX-License-Identifier: MIT
# fio_server.sh (issue 17) - bootbench fio-server on this host, driven by
# Debian's fio as the client (fio --client) over loopback: a job reads the
# disk named for reading and writes the one named in --destroy, and the
# JSON comes back with the server's name; a job that writes the read-only
# disk, a disk not named, or a file outside, fails and changes nothing; a
# job with ioengine=exec or exec_prerun runs no program; kill -9 of the
# launcher leaves no fio; bad input gets one line and exit 2. Issue 44:
# fio's server holds no descriptor of bootbench's caller (stdin a disk not
# named, a file left open), and a job's ioengine=net reaches no listener on
# the host (its network namespace: its loopback and the port carried in).
. tests/lib.sh
. tests/servers.sh
command -v fio >/dev/null || skip "fio is not installed"
[ "$(id -u)" = 0 ] || skip "needs root (namespaces, loop devices)"
free_port FIO_PORT NET_PORT || exit 1
loopdev W "$T/w.img" 16M
loopdev R "$T/r.img" 16M
loopdev X "$T/x.img" 16M
loopdev Y "$T/y.img" 16M
loopdev S "$T/s.img" 16M
dd if=/dev/urandom of="$S" bs=1M count=16 status=none
# (as large as the jobs' writes: fio would lay a smaller file out anew, by its name)
head -c 1M /dev/urandom > "$T/open-file"
mkfs.ext4 -q -F "$Y"
truncate -s 16M "$T/other-file.img"
dd if=/dev/urandom of="$R" bs=1M count=16 status=none
not() { ! "$@"; }
sum() { sha256sum < "$1" | cut -c1-16; }
r_before=$(sum "$R") x_before=$(sum "$X") w_before=$(sum "$W") s_before=$(sum "$S") of_before=$(sum "$T/open-file")
# a disk not named (S) on its stdin and a file left open as fd 7: neither reaches fio
"$BB" fio-server --destroy="$W,$Y" --read="$R" --listen=127.0.0.1 --port=$FIO_PORT > "$T/server.log" 2>&1 < "$S" 7<> "$T/open-file" &
server=$!
SERVER_PIDS="$SERVER_PIDS $server"
check "fio-server listens on port $FIO_PORT" wait_port $FIO_PORT 10
# client NAME JOB-TEXT: fio --client runs it; NAME.json (fio's lines before the JSON dropped), NAME.rc
client() {
	printf '%s\n' "$2" > "$T/$1.fio"
	timeout 60 fio --client=127.0.0.1,$FIO_PORT --output-format=json "$T/$1.fio" > "$T/$1.out" 2> "$T/$1.err"
	echo $? > "$T/$1.rc"
	sed -n '/^{/,$p' "$T/$1.out" > "$T/$1.json"
}
# write_1m NAME DEVICE: a client's job writing 1 MiB of DEVICE
write_1m() { client "$1" "[$1]
filename=$2
rw=write
bs=64k
size=1m"; }
field() { python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['client_stats'][0]; print($2)" "$T/$1.json" 2>/dev/null; }

client read "[read]
filename=$R
rw=randread
bs=4k
size=4m
direct=1"
check "a client's job reads the disk named for reading: exit 0" [ "$(cat "$T/read.rc")" = 0 ]
check "... the JSON comes back: 4 MiB read" [ "$(field read "c['read']['io_bytes']")" = 4194304 ]
check "... with the server's own name on its lines ($(hostname))" grep -q "^<$(hostname)> " "$T/read.out"

client write "[write]
filename=$W
rw=write
bs=64k
size=4m
direct=1"
check "a job writes the disk named in --destroy: exit 0" [ "$(cat "$T/write.rc")" = 0 ]
check "... 4 MiB written, and the disk has changed" sh -c "[ \"\$(python3 -c \"import json; print(json.load(open('$T/write.json'))['client_stats'][0]['write']['io_bytes'])\")\" = 4194304 ] && [ \"\$(sha256sum < '$W' | cut -c1-16)\" != '$w_before' ]"

client write_ro "[write-ro]
filename=$R
rw=write
bs=64k
size=4m"
check "a job writing the read-only disk fails" sh -c "[ \"\$(cat '$T/write_ro.rc')\" != 0 ] && grep -q 'Permission denied' '$T/write_ro.out' '$T/write_ro.err'"
check "... and the disk is unchanged" [ "$(sum "$R")" = "$r_before" ]

client other "[other]
filename=$X
rw=write
bs=64k
size=4m"
check "a job writing a disk not named fails (no such device there, a read-only /dev)" \
	sh -c "[ \"\$(cat '$T/other.rc')\" != 0 ] && grep -q 'Read-only file system' '$T/other.out' '$T/other.err'"
check "... and that disk is unchanged" [ "$(sum "$X")" = "$x_before" ]

# a block node of a disk never named, on a filesystem the sandbox sees (read-only):
# a read-only mount does not stop writes to a device, only nodev does
node=/var/tmp/bbtest-node.$$
mknod "$node" b "$(stat -c '%t' "$X" | xargs printf '%d')" "$(stat -c '%T' "$X" | xargs printf '%d')"
write_1m node "$node"
rm -f "$node"
check "a job writing a disk through a device node on another filesystem fails (nodev)" \
	sh -c "[ \"\$(cat '$T/node.rc')\" != 0 ] && grep -q 'Permission denied' '$T/node.out' '$T/node.err'"
check "... and that disk is unchanged" [ "$(sum "$X")" = "$x_before" ]

# the claim: a consented disk cannot be mounted while it is served, nor
# detached and attached to another file (its device number then names
# other data)
mkdir -p "$T/ym"
check "a consented disk cannot be mounted while it is served" not mount -o ro "$Y" "$T/ym"
umount "$T/ym" 2>/dev/null
losetup -d "$Y" 2>/dev/null
check "a consented loop device cannot be attached to another file while it is served" \
	not losetup "$Y" "$T/other-file.img"
other_before=$(sum "$T/other-file.img")
write_1m reattached "$Y"
check "... a job on its device number never writes the other file" [ "$(sum "$T/other-file.img")" = "$other_before" ]

# (not under /tmp: the server's /tmp is a tmpfs of its own)
outside=/var/tmp/bbtest-outside.$$
client outside "[outside]
filename=$outside
rw=write
size=64k"
check "a job writing a file outside /tmp fails (read-only)" \
	sh -c "[ \"\$(cat '$T/outside.rc')\" != 0 ] && grep -q 'Read-only file system' '$T/outside.out' && [ ! -e '$outside' ]"

client exec "[exec]
ioengine=exec
program=/bin/touch
arguments=$T/exec-ran
time_based
runtime=2"
check "ioengine=exec runs no program" [ ! -e "$T/exec-ran" ]
check "... and its job fails: killed, as the client is told (fio: got signal=9)" grep -q 'got signal=9' "$T/exec.out"
check "... the server says it refused one" grep -q "refused to run a program" "$T/server.log"

client prerun "[prerun]
filename=$R
rw=read
size=64k
exec_prerun=touch $T/prerun-ran"
check "exec_prerun runs no program" [ ! -e "$T/prerun-ran" ]

# --- issue 44: fio's server holds no descriptor of bootbench's caller (a
# disk on its stdin, a file left open: fio would open /proc/self/fd/N), and
# reaches nothing of the host's network: a network namespace of its own,
# its loopback only, the port carried in by bootbench
fio_server_pid() { pgrep -o -f "^/usr/bin/fio --server=127.0.0.1,$FIO_PORT"; }
fiopid=$(fio_server_pid)
check "fio's server runs ($fiopid)" [ -n "$fiopid" ]
ls -l "/proc/$fiopid/fd" 2>/dev/null | awk 'NR > 1 { print $9, $10, $11 }' > "$T/server-fds"
# The server is the oldest process of that command line: it forks a child
# for each job, and the lowest pid (pids wrap at 32768 here) was once a
# child's, gone when its interfaces were read (an empty list). Those are
# read at once too.
tail -n +3 "/proc/$fiopid/net/dev" | cut -d: -f1 | tr -d ' ' > "$T/server-ifs"
sed 's/^/    /' "$T/server-fds"
check "... its stdin is /dev/null, not the disk on bootbench's" grep -qx '0 -> /dev/null' "$T/server-fds"
check "... its stdout and stderr are bootbench's pipes, not bootbench's own file" \
	sh -c "grep -q '^1 -> pipe:' '$T/server-fds' && grep -q '^2 -> pipe:' '$T/server-fds'"
check "... no descriptor of the disk or of the file left open (fd 7)" \
	sh -c "! grep -qE ' -> ($S|$T/open-file)\$' '$T/server-fds'"
write_1m stdin /proc/self/fd/0
write_1m fd7 /proc/self/fd/7
check "a job writing /proc/self/fd/0 and /proc/self/fd/7: the disk on bootbench's stdin is as it was" \
	[ "$(sum "$S")" = "$s_before" ]
check "... and the file left open too" [ "$(sum "$T/open-file")" = "$of_before" ]
check "fio's server sees one interface, its own loopback ($(tr '\n' ' ' < "$T/server-ifs"))" [ "$(cat "$T/server-ifs")" = lo ]
# a listener on the host, on every address: a job's ioengine=net reaches none
# (it counts the connections that sent something: wait_port's sends nothing)
$GUARD python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(5)
n = 0
while True:
    c, _ = s.accept()
    got = 0
    while True:
        d = c.recv(65536)
        if not d:
            break
        got += len(d)
    if got:
        n += 1
        open(sys.argv[2], "w").write("%d connection(s) sent data" % n)
' $NET_PORT "$T/host-listener" &
listener=$!
SERVER_PIDS="$SERVER_PIDS $listener"
check "... the host's listener listens on every address" wait_port $NET_PORT 10
host_ip=$(hostname -I 2>/dev/null | awk '{ print $1 }')
for ip in 127.0.0.1 $host_ip; do
	client "net-$ip" "[net]
ioengine=net
hostname=$ip
port=$NET_PORT
protocol=tcp
rw=write
bs=4k
size=1m"
	check "a job sending to $ip:$NET_PORT (ioengine=net) fails" [ "$(cat "$T/net-$ip.rc")" != 0 ]
done
sleep 0.5
check "... the host's listener got no connection ($(cat "$T/host-listener" 2>/dev/null || echo none))" [ ! -e "$T/host-listener" ]
kill $listener 2>/dev/null

kill -KILL $server
wait $server 2>/dev/null
fio_left() { pgrep -f "^/usr/bin/fio --server=127.0.0.1,$FIO_PORT" > /dev/null; }
i=0; while fio_left && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "kill -9 of bootbench fio-server: no fio server is left" not fio_left

# a consented disk whose identity changes (here its size: the loop device's
# file grew, and the kernel was told) is served no more: the next job stops
"$BB" fio-server --destroy="$W" --listen=127.0.0.1 --port=$FIO_PORT > "$T/server2.log" 2>&1 &
server=$!
SERVER_PIDS="$SERVER_PIDS $server"
check "fio-server listens again" wait_port $FIO_PORT 10
truncate -s 32M "$T/w.img" && losetup -c "$W"
w_before=$(sum "$W")
write_1m changed "$W"
check "a disk that changed since consent: the job fails" [ "$(cat "$T/changed.rc")" != 0 ]
check "... and the disk is unchanged" [ "$(sum "$W")" = "$w_before" ]
i=0; while kill -0 $server 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
check "... the server says why and stops" sh -c "grep -q 'no longer the disk consent was given for' '$T/server2.log' && ! kill -0 $server 2>/dev/null"

# bad input: one line, exit 2, nothing started
bad_input() { # description args...
	d=$1; shift
	"$BB" fio-server "$@" > "$T/out" 2>&1
	rc=$?
	check "$d: exit 2, one line ($(head -c 100 "$T/out"))" sh -c "[ $rc = 2 ] && [ \$(grep -c . '$T/out') = 1 ]"
}
bad_input "--destroy of a file" --destroy="$T/w.img"
bad_input "--read of a missing device" --read=/dev/nonexistent
bad_input "a bad port" --port=0
bad_input "a missing fio" --fio="$T/no-fio"
mkdir -p "$T/m" && mkfs.ext4 -q -F "$X" && mount "$X" "$T/m"
bad_input "--destroy of a mounted disk" --destroy="$X"
umount "$T/m"
finish
