# SPDX-License-Identifier: MIT
# bootbench ssh-keys (issue 36): authorized_keys lines from outside checked
# before dropbear reads them, and fingerprints equal to OpenSSH's own
# (ssh-keygen -l) for every key type, keys made here by ssh-keygen.
. tests/lib.sh
need_commands ssh-keygen
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
finish
