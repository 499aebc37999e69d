# SPDX-License-Identifier: MIT
# job_refusals.sh (issue 44, items 3 and 5 and the minor bugs) - what no
# job may say, whoever runs it: bootbench's engine, or the image's fio it
# hands a job to (out/fio/fio; the library checks also ask the host's
# dynamic fio, which can load one). Each refusal is one line naming the
# option, the value and why, exit 2, nothing written; checked natively and
# delegated (a job whose first line is an option only fio has goes to fio
# with the rest unread by bootbench's own parse):
#   - an engine that is a library (/path/x.so, x.so, an unknown name):
#     never loaded: a .so whose constructor leaves a mark shows it, also
#     through fio's own --enghelp, an abbreviation (--ioeng), the value in
#     the next word, '--' and a file named --X.fio after it;
#   - include read as fio reads it (any line starting "include", the name
#     after its eighth character, a relative one from the working folder
#     first): an include that hides ioengine=net with protocol=unix is
#     seen and refused, and a unix socket listening on the host gets no
#     connection; protocol=unix, hostname=/path and a socket as filename=
#     are refused on their own;
#   - rw=readwrite (and every other mode that writes) counts as a write
#     for the consent gate, delegated and native: the disk's sha256 holds;
#   - exec_prerun, exec_postrun: exit 2 before anything runs;
#   - "\:" in filename= is a ':' of the name, natively as in fio;
#   - a log prefix under /dev, /proc or /sys (by its letters, through a
#     link, from the working folder, or as a job's name) is refused.
. tests/lib.sh
need_commands python3 sha256sum "${CC:-cc}"
[ "$(id -u)" = 0 ] || skip "needs root for loop devices and the sandbox"
export BOOTBENCH_FIO=$PWD/out/fio/fio
[ -x "$BOOTBENCH_FIO" ] || { echo "FAILED: $BOOTBENCH_FIO is not built (make all)"; exit 1; }
# the fio that can load a library: the host's (Debian's is dynamic); the image's is static
LOADFIO=$(command -v fio || echo "$BOOTBENCH_FIO")
echo "the library checks ask $LOADFIO"
R=$T/run
mkdir -p "$R/files"
cd "$R" || exit 1
# everything in the working folder, to show that a refusal wrote nothing
state() { find "$R" ! -name o.txt ! -name e.txt -printf '%p %s %T@\n' | sort; }

# --- item 3: only built-in engines, by name
cat > x.c <<EOF
#include <fcntl.h>
#include <unistd.h>
/* loaded by fio: proof that a job's code ran; fio then ends as if all went well */
__attribute__((constructor)) static void loaded(void)
{
	int fd = open("$R/loaded", O_WRONLY | O_CREAT, 0644);

	if (fd >= 0)
		close(fd);
	_exit(0);
}
EOF
"${CC:-cc}" -shared -fPIC -o x.so x.c || { bad "a .so to load"; finish; }
# ONLY_FIO: an option fio has and bootbench lacks, which hands the job to fio
ONLY_FIO=fadvise_hint=0
printf '[so]\n%s\nioengine=%s/x.so\nfilename=so.dat\nsize=64k\n' "$ONLY_FIO" "$R" > so.fio
printf '[h]\nioengine=%s/x.so\nfilename=h.dat\nsize=64k\n' "$R" > ./--hidden.fio
before=$(state)
# loads NAME WANT ARGS...: refused naming WANT, and nothing fio could load ran
loads() {
	_n=$1 _w=$2; shift 2
	rm -f "$R/loaded"
	_fio=$BOOTBENCH_FIO
	BOOTBENCH_FIO=$LOADFIO
	refuses "$_n" "$_w" "$BB" run "$@"
	BOOTBENCH_FIO=$_fio
	check "... nothing was loaded" [ ! -e "$R/loaded" ]
}
loads "native: ioengine=/path/x.so, refused as a library" "ioengine=$R/x.so: a library for fio to load" \
	--name=so --ioengine="$R/x.so" --filename=so.dat --size=64k
loads "delegated: ioengine=/path/x.so after an option only fio has" "only built-in engines by their names (so.fio line 3)" \
	so.fio
loads "--engine-of-record=fio: the same" "ioengine=$R/x.so: a library" --engine-of-record=fio so.fio
loads "ioengine=x.so (no folder): a library too" "ioengine=x.so: a library" \
	--name=so --"$ONLY_FIO" --ioengine=x.so --filename=so.dat --size=64k
loads "an unknown name (fio would try it as a library)" "invalid value 'nosuchengine' for option 'ioengine'" \
	--name=so --"$ONLY_FIO" --ioengine=nosuchengine --filename=so.dat --size=64k
loads "fio's external: form" "ioengine=external:$R/x.so: an engine built apart from fio" \
	--name=so --"$ONLY_FIO" --ioengine="external:$R/x.so" --filename=so.dat --size=64k
loads "fio's own --enghelp=LIB (it loads the library)" "option '--enghelp' is fio's own" \
	--name=so --filename=so.dat --size=64k --enghelp="$R/x.so"
loads "an abbreviation fio takes for --ioengine" "option '--ioeng': fio would take it for --ioengine" \
	--name=so --filename=so.dat --size=64k --"$ONLY_FIO" --ioeng="$R/x.so"
loads "the engine in the next word (fio's form, a job file to bootbench)" "option '--ioengine' needs its value after '='" \
	--name=so --filename=so.dat --size=64k --"$ONLY_FIO" --ioengine "$R/x.so"
loads "'--' and a job file named --X.fio after it (fio reads it, bootbench took it for an option)" "'--': fio reads the words after it as job files" \
	--"$ONLY_FIO" -- --hidden.fio
loads "a word with one '-' (an option to fio, a job file to bootbench)" "'-ioengine=x.so': fio reads a word starting with '-' as an option" \
	--name=so --filename=so.dat --size=64k --"$ONLY_FIO" -ioengine=x.so
check "the refusals wrote nothing in the working folder" [ "$(state)" = "$before" ]
# the built-in engines still run, native and delegated
"$BB" run --name=ok --ioengine=psync --filename=ok.dat --size=64k --rw=write > o.txt 2> e.txt
check "a built-in engine of bootbench's still runs (exit $?)" grep -q 'WRITE: bw=' o.txt
printf '[fc]\nioengine=filecreate\nnrfiles=2\nfilesize=4k\ndirectory=%s/files\n' "$R" > fc.fio
"$BB" run fc.fio > o.txt 2> e.txt
check "a built-in engine of fio's still runs on fio (exit $?, $(ls files | wc -l) files)" [ "$(ls files | wc -l)" = 2 ]

# --- item 5: include as fio reads it; no unix socket
cat > "$T/listen.py" <<'EOF'
import socket, sys, os
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(8)
log = open(sys.argv[2], "a", buffering=1)
log.write("listening\n")
while True:
    c, _ = s.accept()
    log.write("connected\n")
    n = 0
    while True:
        b = c.recv(65536)
        if not b:
            break
        n += len(b)
    log.write("received %d\n" % n)
    c.close()
EOF
python3 "$T/listen.py" "$T/sock" "$T/listen.log" &
SERVER_PIDS="$SERVER_PIDS $!"
i=0; while [ ! -S "$T/sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/sock" ] || { bad "a unix socket listening on the host"; finish; }
printf 'ioengine=net\nprotocol=unix\nfilename=%s\nrw=write\nbs=4k\nsize=64k\n' "$T/sock" > hidden.fio
# a job fio runs (filecreate) that includes the hidden options in forms bootbench skipped
for form in 'include_hidden.fio' 'include=hidden.fio' 'includeXhidden.fio'; do
	printf '[j]\nioengine=filecreate\nnrfiles=1\nfilesize=4k\ndirectory=%s/files\n%s\n' "$R" "$form" > inc.fio
	refuses "'$form' in a section: read as fio reads it, its net engine refused" "in a sandbox without a network (hidden.fio line 1)" \
		"$BB" run inc.fio
done
printf 'include=hidden.fio\n[j]\nioengine=filecreate\nnrfiles=1\nfilesize=4k\ndirectory=%s/files\n' "$R" > top.fio
refuses "an include before any section: read too" "in a sandbox without a network (hidden.fio line 1)" "$BB" run top.fio
# a relative include: fio takes the working folder's file first, then the one beside the job file
mkdir -p d
printf 'ioengine=filecreate\n' > d/hidden.fio
printf '[j]\nnrfiles=1\nfilesize=4k\ndirectory=%s/files\ninclude hidden.fio\n' "$R" > d/job.fio
refuses "a relative include: the working folder's file, as fio reads it" "in a sandbox without a network (hidden.fio line 1)" \
	"$BB" run d/job.fio
(cd "$T" && "$BB" run --parse-only "$R/d/job.fio") > o.txt 2> e.txt
check "... and the one beside the job file when the working folder has none (exit $?)" grep -q '^fio runs it: ioengine=filecreate' o.txt
# the pieces on their own
printf '[j]\nioengine=filecreate\nnrfiles=1\nfilesize=4k\ndirectory=%s/files\nprotocol=unix\n' "$R" > proto.fio
refuses "protocol=unix on its own" "network engines are refused) (proto.fio line 6)" "$BB" run proto.fio
refuses "proto=unix (fio's alias)" "proto=unix: a unix socket" "$BB" run --name=p --"$ONLY_FIO" --proto=unix --filename=p.dat --size=64k
refuses "hostname=/path (the socket's path under protocol=unix)" "hostname=$T/sock: a path names a unix socket" \
	"$BB" run --name=p --"$ONLY_FIO" --hostname="$T/sock" --filename=p.dat --size=64k
refuses "a socket as filename=, native" "filename=$T/sock: a socket" "$BB" run --name=p --filename="$T/sock" --size=64k
refuses "a socket as filename=, delegated and among other names" "filename=$T/sock: a socket" \
	"$BB" run --name=p --"$ONLY_FIO" --filename="p.dat:$T/sock" --size=64k
sleep 0.3
check "the host's unix socket got no connection" sh -c "! grep -q connected '$T/listen.log'"

# --- rw modes that write count as writes, for the consent gate
loopdev dev "$T/disk.img" 16M
dd if=/dev/urandom of="$dev" bs=1M count=16 oflag=direct status=none
sum=$(sha256sum < "$dev")
for mode in readwrite readwrite:4k rw randrw trim randtrim trimwrite randtrimwrite; do
	printf '[w]\n%s\nioengine=psync\nfilename=%s\nrw=%s\nsize=1m\n' "$ONLY_FIO" "$dev" "$mode" > rw.fio
	refuses "delegated rw=$mode: a write, refused without consent" "refusing to write $dev" "$BB" run rw.fio
done
for mode in readwrite rw randrw trim randtrim; do
	refuses "native rw=$mode: a write, refused without consent" "refusing to write $dev" \
		"$BB" run --name=w --filename="$dev" --rw="$mode" --size=1m
done
check "... the disk is as it was" [ "$(sha256sum < "$dev")" = "$sum" ]

# --- exec_prerun, exec_postrun: refused before anything runs
for opt in exec_prerun exec_postrun; do
	printf '[pre]\nioengine=filecreate\nnrfiles=1\nfilesize=4k\ndirectory=%s/files\n%s=/bin/touch %s/ran\n' "$R" "$opt" "$R" > pre.fio
	refuses "$opt: exit 2, one line" "$opt=/bin/touch $R/ran: refused to run a program" "$BB" run pre.fio
	check "... nothing ran" [ ! -e "$R/ran" ]
done

# --- "\:" in filename= is a ':' of the name (fio's escape), natively
mkdir -p colon && cd colon || exit 1
"$BB" run --name=c --ioengine=psync --rw=write --size=64k '--filename=a\:b.dat:plain.dat' > o.txt 2> e.txt
check "native '\\:': one file a:b.dat, and plain.dat (exit $?): $(ls | grep -v '^[oe]\.txt$' | tr '\n' ' ')" \
	sh -c "[ -f 'a:b.dat' ] && [ -f plain.dat ] && [ \$(ls | grep -vc '^[oe]\\.txt\$') = 2 ]"
cd "$R" || exit 1

# --- no log under /dev, /proc or /sys
ln -s /dev devlink
n=bbtest-$$
printf '[global]\nwrite_iops_log\n[/dev/%s]\nioengine=psync\nfilename=l.dat\nsize=64k\n' "$n" > name.fio
printf '[l]\n%s\nfilename=l.dat\nsize=64k\nwrite_bw_log=%s\n' "$ONLY_FIO" "$dev" > log.fio
before=$(state)
refuses "write_bw_log=a disk's node: refused" "write_bw_log=$dev: lies under /dev" \
	"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_bw_log="$dev"
refuses "write_lat_log under /proc" "write_lat_log=/proc/sys/vm/$n: lies under /proc" \
	"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_lat_log="/proc/sys/vm/$n"
refuses "write_iops_log under /sys, by way of .." "lies under /sys" \
	"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_iops_log="$R/../../../../sys/$n"
refuses "write_hist_log through a link to /dev" "write_hist_log=devlink/$n: lies under /dev" \
	"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_hist_log="devlink/$n"
refuses "a relative prefix from a working folder in /dev" "write_bw_log=$n: lies under /dev" \
	sh -c "cd /dev && '$BB' run --name=l --ioengine=psync --filename='$R/l.dat' --size=64k --write_bw_log=$n"
refuses "no value: the job's name is the prefix" "write_bw_log: without a value its prefix is the job's name '/dev/$n'" \
	"$BB" run --name="/dev/$n" --ioengine=psync --filename=l.dat --size=64k --write_bw_log=
refuses "a bare --write_bw_log on the command line: fio would take the next word for its prefix" \
	"option '--write_bw_log' needs its value after '='" \
	"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_bw_log --name=m
refuses "... also from a [global] section" "write_iops_log: without a value its prefix is the job's name '/dev/$n'" "$BB" run name.fio
refuses "delegated: the same" "write_bw_log=$dev: lies under /dev" "$BB" run log.fio
check "... no log file made in /dev: $(ls /dev | grep -e "$n" -e "^${dev#/dev/}_" | tr '\n' ' ')" \
	sh -c "! ls /dev | grep -q -e '$n' -e '^${dev#/dev/}_'"
state > "$T/after"
check "... nor in the working folder: $(echo "$before" | diff - "$T/after" | grep '^[<>]' | tr '\n' ' ')" [ "$(state)" = "$before" ]
check "... the disk is as it was" [ "$(sha256sum < "$dev")" = "$sum" ]
"$BB" run --name=l --ioengine=psync --filename=l.dat --size=64k --write_bw_log=logs > o.txt 2> e.txt
check "a log beside the run is still written (exit $?)" [ -s logs_bw.1.log ]
finish
