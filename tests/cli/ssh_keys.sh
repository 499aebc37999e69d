# SPDX-License-Identifier: MIT
# bootbench ssh-keys (issue 36): authorized_keys lines from outside checked
# before dropbear reads them, and fingerprints equal to OpenSSH's own
# (ssh-keygen -l) for every key type, keys made here by ssh-keygen.
# Issue 44: no key hides from the operator. The image's dropbear (2022.83,
# unpacked from dl/debs) runs here, root's home a tmpfs in a mount namespace
# of its own: a line longer than its 4200-byte buffer, showing key B, lets
# key A (its tail) in; ssh-keys refuses that line, and a line with two
# command= options, which dropbear refuses too.
. tests/lib.sh
. tests/servers.sh
need_commands ssh-keygen ssh dpkg-deb unshare python3
[ "$(id -u)" = 0 ] || skip "needs root (dropbear in a mount namespace of its own)"
for t in ed25519 rsa ecdsa-256 ecdsa-384 ecdsa-521; do
	case $t in ecdsa-*) set -- -t ecdsa -b "${t#ecdsa-}" ;; rsa) set -- -t rsa -b 2048 ;; *) set -- -t "$t" ;; esac
	ssh-keygen -q "$@" -N '' -C "key $t" -f "$T/$t"
done
cat "$T"/*.pub > "$T/all"
"$BB" ssh-keys --output="$T/out" "$T/all" > "$T/fp.txt"
check "every key type: exit 0" [ $? = 0 ]
check "the fingerprints and sizes are ssh-keygen's, in order" sh -c \
	"[ \"\$(awk '{ print \$2, \$3 }' '$T/fp.txt')\" = \"\$(ssh-keygen -lf '$T/all' | awk '{ print \$1, \$2 }')\" ]"
check "the comments are kept" grep -q '^ssh-ed25519 256 SHA256:[A-Za-z0-9+/]\{43\} key ed25519$' "$T/fp.txt"
check "--output holds the lines, which ssh-keygen reads back" sh -c "[ \"\$(ssh-keygen -lf '$T/out' | wc -l)\" = 5 ]"
{ echo "# ops"; echo; printf 'no-pty,command="echo \\"hi\\"" %s\r\n' "$(cat "$T/ed25519.pub")"; } > "$T/opts"
"$BB" ssh-keys "$T/opts" > "$T/opts.txt"
check "comments, blank lines, CRLF and dropbear's options are accepted" [ $? = 0 ] && check "... one key" [ "$(wc -l < "$T/opts.txt")" = 1 ]

key=$(cut -d' ' -f2 "$T/ed25519.pub")
rsakey=$(cut -d' ' -f2 "$T/rsa.pub")
# bad FILE-CONTENT MESSAGE: exit 2, one line naming the line, nothing written
bad_keys() {
	printf '%b' "$2" > "$T/bad"
	rm -f "$T/bad.out"
	out=$("$BB" ssh-keys --output="$T/bad.out" "$T/bad" 2>&1)
	rc=$?
	if [ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -qF "$3" && [ ! -e "$T/bad.out" ]; then ok "$1"
	else bad "$1 (exit $rc: $out)"; fi
}
bad_keys "a password line is not a key" "$(cat "$T/ed25519.pub")\nroot:secret\n" "bad line 2: an option or key type dropbear does not know (root:secret)"
bad_keys "a key that is not base64" "ssh-ed25519 AAAA%%%%\n" "bad line 1: the key is not base64"
bad_keys "a blob whose own type differs (an RSA key named ed25519)" "ssh-ed25519 $rsakey x\n" "bad line 1: the key's own type is not ssh-ed25519"
bad_keys "DSA keys are refused" "ssh-dss $key\n" "bad line 1: an option or key type dropbear does not know (ssh-dss)"
bad_keys "an option dropbear does not know" "environment=\"X=1\" ssh-ed25519 $key\n" "bad line 1: an option or key type dropbear does not know (environment)"
bad_keys "an option's open quote" "command=\"ls ssh-ed25519 $key\n" "bad line 1: option command: its quotes are not closed"
bad_keys "a control character" "ssh-ed25519 $key \033[2Jx\n" "bad line 1: a control character in the line"
bad_keys "a file of comments only" "# nothing\n\n" "holds no key"
bad_keys "a type with no key" "ssh-ed25519\n" "bad line 1: no key after its type"
for i in $(seq 101); do cat "$T/ed25519.pub"; done > "$T/many"
refuses "more than 100 keys" "more than 100 keys" "$BB" ssh-keys "$T/many"
ln -s "$T/all" "$T/link"
refuses "a link is not followed" "cannot read $T/link: it is a link" "$BB" ssh-keys "$T/link"
head -c 70000 /dev/zero | tr '\0' a > "$T/big"
refuses "a file over 64 KiB" "larger than 64 KiB" "$BB" ssh-keys "$T/big"
refuses "no file" "give one authorized_keys FILE" "$BB" ssh-keys

# --- issue 44: no line is longer than dropbear reads, nor has two command= options
# pad_line FILE PREFIX LENGTH [TAIL]: PREFIX padded with x to LENGTH characters, then TAIL, one line
pad_line() {
	python3 -c 'import sys; p = sys.argv[2]; open(sys.argv[1], "w").write(p + "x" * (int(sys.argv[3]) - len(p)) + sys.argv[4] + "\n")' \
		"$1" "$2" "$3" "${4:-}"
}
pad_line "$T/4096" "ssh-ed25519 $key at the limit " 4096
"$BB" ssh-keys "$T/4096" > /dev/null 2>&1
check "a line of 4096 characters is taken (exit $?)" [ $? = 0 ]
ssh-keygen -q -t ed25519 -N '' -C "key A" -f "$T/a"
# what dropbear 2022.83 reads as two lines: 4200 bytes showing key B (dropped), then key A
pad_line "$T/hiding" "ssh-ed25519 $key operator-B " 4200 "$(cat "$T/a.pub")"
bad_keys "a line longer than dropbear reads (a key hidden in its tail)" "$(cat "$T/hiding")\n" \
	"bad line 1: the line is longer than 4096 characters"
pad_line "$T/4097" "ssh-ed25519 $key " 4097
bad_keys "a line of 4097 characters" "$(cat "$T/ed25519.pub")\n$(cat "$T/4097")\n" "bad line 2: the line is longer than 4096"
pad_line "$T/comment" "# $key" 4200 "$(cat "$T/a.pub")"
bad_keys "a comment line as long" "$(cat "$T/ed25519.pub")\n$(cat "$T/comment")\n" "bad line 2: the line is longer than 4096"
bad_keys "two command= options" "command=\"true\",no-pty,COMMAND=\"sh\" ssh-ed25519 $key\n" \
	"bad line 1: two command= options (dropbear refuses the line)"

# --- the same lines against the image's dropbear, from its package in dl/debs
debs=$(ls dl/debs/dropbear-bin_*_amd64.deb dl/debs/libtomcrypt1_*_amd64.deb dl/debs/libtommath1_*_amd64.deb 2>/dev/null | wc -l)
[ "$debs" = 3 ] || { bad "dropbear-bin, libtomcrypt1 and libtommath1 are not in dl/debs (make check fetches them)"; finish; }
for d in dropbear-bin libtomcrypt1 libtommath1; do dpkg-deb -x dl/debs/${d}_*_amd64.deb "$T/db"; done
DB_LIBS=$T/db/usr/lib/x86_64-linux-gnu
free_port DB_PORT || { bad "a free port for dropbear"; finish; }
LD_LIBRARY_PATH=$DB_LIBS "$T/db/usr/bin/dropbearkey" -t ed25519 -f "$T/hostkey" > /dev/null 2>&1
check "the image's dropbear is 2022.83" sh -c "LD_LIBRARY_PATH='$DB_LIBS' '$T/db/usr/sbin/dropbear' -V 2>&1 | grep -q 'v2022.83'"
# lets_in AUTHORIZED_KEYS KEY: dropbear, that file root's authorized_keys, lets KEY log in
lets_in() {
	cat > "$T/db.sh" <<EOF
mount -t tmpfs -o mode=0700 tmpfs /root && mkdir -m 0700 /root/.ssh && cp '$1' /root/.ssh/authorized_keys &&
	LD_LIBRARY_PATH='$DB_LIBS' exec '$T/db/usr/sbin/dropbear' -F -E -s -p 127.0.0.1:$DB_PORT -r '$T/hostkey' -P '$T/db.pid'
EOF
	port_free $DB_PORT || { echo "--- port $DB_PORT is not free for dropbear"; return 2; }
	$GUARD unshare -m --propagation private sh "$T/db.sh" >> "$T/dropbear.log" 2>&1 &
	_db=$!
	SERVER_PIDS="$SERVER_PIDS $_db"
	if ! wait_port $DB_PORT 10; then
		echo "--- dropbear did not listen on $DB_PORT:"; tail -n 5 "$T/dropbear.log"
		kill -KILL "$_db" 2>/dev/null; wait "$_db" 2>/dev/null
		return 2
	fi
	_in=$(timeout 20 ssh -n -p $DB_PORT -i "$2" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR root@127.0.0.1 echo in 2>/dev/null)
	# KILL, not TERM: dropbear's SIGTERM sets a flag its loop reads after select() returns,
	# and one that lands after the read (as its child's SIGCHLD is handled) waits for another
	# connection: a suite's run waited out its 300 s here. Its tmpfs goes with its namespace.
	kill -KILL "$_db" 2>/dev/null
	wait "$_db" 2>/dev/null
	[ "$_in" = in ]
}
# not: the login refused (1), not a dropbear that never listened (2)
not() { "$@"; [ $? = 1 ]; }
rm -f "$T/ak"
"$BB" ssh-keys --output="$T/ak" "$T/hiding" > /dev/null 2>&1
check "ssh-keys refuses the hiding line and writes nothing for dropbear (exit $?)" [ ! -e "$T/ak" ]
# dropbear reads root's authorized_keys from a tmpfs over /root in a mount namespace of its own; a
# chroot's root is no mount point, so no private namespace can be made there (the fresh root's case)
if ! unshare -m --propagation private true 2> /dev/null; then
	echo "note: no private mount namespace here (a chroot?): the 4 checks against the real dropbear are not run"
	finish
fi
check "dropbear: the hiding line lets key A in (what ssh-keys must refuse)" lets_in "$T/hiding" "$T/a"
check "... and not key B, the one it shows" not lets_in "$T/hiding" "$T/ed25519"
"$BB" ssh-keys --output="$T/ak" "$T/4096" > /dev/null 2>&1
check "a line of 4096 characters that ssh-keys takes: dropbear lets its key in" lets_in "$T/ak" "$T/ed25519"
printf 'command="echo one",command="echo two" %s\n' "$(cat "$T/a.pub")" > "$T/cmd2"
check "dropbear refuses a line with two command= options, as ssh-keys does" not lets_in "$T/cmd2" "$T/a"
finish
