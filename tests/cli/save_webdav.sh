# SPDX-License-Identifier: MIT
# bootbench save to a real WebDAV server (Debian's nginx, HTTPS with a CA
# made here, basic auth with a password holding a comma, quotes and a
# space), run on this host: the folder arrives whole with its manifest and
# the stick copy is written first; a retry adds nothing; the wrong CA, the
# wrong password, a full share and a server that is down each fail in one
# line within bounded time, and what was not delivered is spooled and
# delivered by `save --pending` once the server is back; a server killed in
# the middle of an upload leaves no folder under the final name, and
# `save --pending` completes it after the restart. `save --test` writes and
# removes a test file, or says in one line why it cannot. The password never
# reaches curl's command line. Bad input exits 2 and sends nothing.
. tests/lib.sh
. tests/servers.sh
need_commands nginx openssl curl
[ "$(id -u)" = 0 ] || skip "needs root (nginx runs as root; the full share is a small tmpfs)"
start_webdav || { bad "nginx with WebDAV starts"; finish; }
URL=https://bench@127.0.0.1:$DAV_PORT/rack%201/r7
printf 'https://bench@127.0.0.1:%s %s\n' "$DAV_PORT" "$PASSWORD" > "$T/credentials"
chmod 600 "$T/credentials"
mkdir -p "$T/stick" "$T/run/20261201T120000Z_SER1_ab12cd"
R=$T/run/20261201T120000Z_SER1_ab12cd
echo '{"jobs": []}' > "$R/sda.json"
head -c 300000 /dev/urandom > "$R/big.bin"
echo 'log line' > "$R/console.log"
save() { "$BB" save --credentials="$T/credentials" --ca="$T/ca/ca.crt" --stick="$T/stick" --spool="$T/spool" "$@"; }

save --timeout=20 usb "$URL" "$R" > "$T/out" 2>&1
check "save to the stick and WebDAV: exit 0" [ $? = 0 ]
cat "$T/out"
check "the stick copy is whole, with its manifest" check_manifest "$T/stick/results/${R##*/}"
check "the WebDAV copy is whole, with its manifest" check_manifest "$T/dav/rack 1/r7/${R##*/}"
check "no temporary folder is left" [ -z "$(ls -A "$T/dav/rack 1/r7" | grep -v "^${R##*/}\$")" ]
check "the stick was written first" sh -c "[ \$(grep -n 'usb: delivered' '$T/out' | cut -d: -f1) -lt \$(grep -n 'r7: delivered' '$T/out' | cut -d: -f1) ]"
check "the password appears in no output" sh -c "! grep -qF 'pa,ss' '$T/out'"
check "the stick's deliveries.log records the delivery" \
	grep -q "^20[0-9-]*T[0-9:]*Z ${R##*/} https://127.0.0.1:$DAV_PORT/rack 1/r7 delivered (attempt 1, " "$T/stick/results/deliveries.log"
check "nginx saw every request authenticated as bench" sh -c "! grep -v '\" 401 ' '$T/nginx/access.log' | grep -qv ' - bench '"
n=$(wc -l < "$T/nginx/access.log")
save --timeout=20 "$URL" "$R" > "$T/out" 2>&1
check "saving the same run again: exit 0" [ $? = 0 ]
check "... it adds nothing (one HEAD after the first check)" sh -c "[ \$(tail -n +$((n + 1)) '$T/nginx/access.log' | grep -c '\"PUT ') = 0 ]"

# the wrong CA: refused at once, not retried
make_ca "$T/other-ca" >/dev/null
"$BB" save --credentials="$T/credentials" --ca="$T/other-ca/ca.crt" --stick=none --spool="$T/spool" --timeout=30 \
	"https://bench@127.0.0.1:$DAV_PORT/other/" "$R" > "$T/out" 2>&1
check "a server certificate another CA signed: exit 1" [ $? = 1 ]
check "... saying so in one line" grep -q "FAILED: the certificate of 127.0.0.1 does not verify against $T/other-ca/ca.crt" "$T/out"
check "... nothing was sent" [ ! -e "$T/dav/other" ]
check "... the destination is spooled" grep -q "^https://bench@127.0.0.1:$DAV_PORT/other/	$R\$" "$T/spool"
: > "$T/spool"

# the wrong password
printf 'https://bench@127.0.0.1:%s wrong\n' "$DAV_PORT" > "$T/bad-credentials"
"$BB" save --credentials="$T/bad-credentials" --ca="$T/ca/ca.crt" --stick=none --spool="$T/spool" --timeout=30 \
	"https://bench@127.0.0.1:$DAV_PORT/other/" "$R" > "$T/out" 2>&1
check "the wrong password: exit 1, in one line" sh -c "[ $? = 1 ] && grep -q 'FAILED: .*HTTP 401: wrong user or password' '$T/out'"
: > "$T/spool"

# a full share: nginx's root on a 1 MiB tmpfs
mkdir -p "$T/small"
mount -t tmpfs -o size=1m tmpfs "$T/small"
head -c 800000 /dev/zero > "$T/small/filler"
stop_webdav
DAV_ROOT=$T/small start_webdav
save --timeout=4 "https://bench@127.0.0.1:$DAV_PORT/full/" "$R" > "$T/out" 2>&1
# nginx answers ENOSPC with 500 (a server with RFC 4918's 507 gets "the share is full")
check "a full share: exit 1, in one line" sh -c "[ $? = 1 ] && grep -q 'FAILED: PUT .*: HTTP 500: the server could not store it (full' '$T/out'"
check "... no folder under the final name" [ ! -e "$T/small/full/${R##*/}" ]
stop_webdav
DAV_ROOT=$T/dav start_webdav
: > "$T/spool"

# the server down: retried with backoff until the timeout, then spooled
stop_webdav
start=$(date +%s)
save --timeout=4 "$URL/later" "$R" > "$T/out" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
check "server down: exit 1 after the 4 s timeout (took ${secs}s)" sh -c "[ $rc = 1 ] && [ $secs -le 10 ]"
check "... each attempt said why, with the backoff" sh -c "grep -q 'attempt 1 failed: cannot connect' '$T/out' && grep -q 'retrying in 2 s' '$T/out'"
check "... spooled" grep -q "/later	" "$T/spool"
start_webdav
save --pending > "$T/out" 2>&1
check "save --pending after the restart: exit 0" [ $? = 0 ]
check "... the folder is there, whole" check_manifest "$T/dav/rack 1/r7/later/${R##*/}"
check "... the spool is empty" [ ! -s "$T/spool" ]

# the server killed in the middle of an upload: no folder under the final
# name; --pending after the restart sends it whole and removes the remains.
# At 40 requests a second the 151 files take about 4 s to send.
stop_webdav
DAV_RATE=40 start_webdav
M=$T/run/20261201T130000Z_SER1_cd34ef
mkdir -p "$M"
for i in $(seq 1 150); do echo "file $i" > "$M/part$i.txt"; done
n=$(wc -l < "$T/nginx/access.log")
(
	i=0
	while [ "$(tail -n +$((n + 1)) "$T/nginx/access.log" | grep -c '"PUT ')" -lt 10 ] && [ $i -lt 600 ]; do
		sleep 0.05; i=$((i + 1))
	done
	kill_webdav
) &
killer=$!
save --timeout=3 "$URL/mid" "$M" > "$T/out" 2>&1
rc=$?
wait $killer
sent=$(tail -n +$((n + 1)) "$T/nginx/access.log" | grep -c '"PUT ')
check "killed mid-upload (after $sent of 151 files): exit 1" sh -c "[ $rc = 1 ] && [ $sent -ge 10 ] && [ $sent -lt 151 ]"
check "... said why and spooled it" sh -c "grep -q 'mid/*: FAILED: .*gave up after 3 s' '$T/out' && grep -q '/mid	' '$T/spool'"
check "... no folder under the final name" [ ! -e "$T/dav/rack 1/r7/mid/${M##*/}" ]
check "... the stick's deliveries.log says it failed" grep -q " ${M##*/} https://.*/mid FAILED: .*(gave up after 3 s)\$" "$T/stick/results/deliveries.log"
start_webdav
save --pending > "$T/out" 2>&1
check "save --pending after the restart: exit 0" [ $? = 0 ]
check "... the folder is there, whole" check_manifest "$T/dav/rack 1/r7/mid/${M##*/}"
check "... nothing else is left there" [ "$(ls -A "$T/dav/rack 1/r7/mid")" = "${M##*/}" ]
check "... and the deliveries.log that it got there" grep -q " ${M##*/} https://.*/mid delivered (attempt 1, " "$T/stick/results/deliveries.log"
check "... the spool is empty" [ ! -s "$T/spool" ]

# save --test: one attempt, nothing delivered, nothing left
before=$(find "$T/dav" | sort)
save --test "$URL" > "$T/out" 2>&1
check "save --test on a writable share: exit 0" [ $? = 0 ]
check "... says it is writable, in one line" sh -c "[ \$(wc -l < '$T/out') = 1 ] && grep -q '^save: https://127.0.0.1:$DAV_PORT/rack 1/r7: writable (wrote, found and removed a test file' '$T/out'"
check "... leaves nothing on the share" [ "$(find "$T/dav" | sort)" = "$before" ]
check "... and nothing in the spool" [ ! -s "$T/spool" ]
"$BB" save --test --credentials="$T/bad-credentials" --ca="$T/ca/ca.crt" "$URL" > "$T/out" 2>&1
check "save --test with the wrong password: exit 1, in one line" sh -c "[ $? = 1 ] && [ \$(wc -l < '$T/out') = 1 ] && grep -q 'FAILED: .*HTTP 401' '$T/out'"
start=$(date +%s)
save --test "https://127.0.0.1:1/x/" > "$T/out" 2>&1
check "save --test on a closed port: exit 1 at once, naming the port" \
	sh -c "[ $? = 1 ] && [ $(( $(date +%s) - start )) -le 5 ] && grep -q 'FAILED: cannot connect to 127.0.0.1 port 1' '$T/out'"
save --test > "$T/out" 2>&1
check "save --test without a destination: exit 2, one line" sh -c "[ $? = 2 ] && [ \$(wc -l < '$T/out') = 1 ]"

# bad input: exit 2, one line, nothing sent
for bad_args in "ftp://x/y $R" "https://127.0.0.1:0/x $R" "https://127.0.0.1:$DAV_PORT/x" "--timeout=x usb $R"; do
	save $bad_args > "$T/out" 2>&1
	check "bad input '$bad_args': exit 2, one line" sh -c "[ $? = 2 ] && [ \$(wc -l < '$T/out') = 1 ]"
done
finish
