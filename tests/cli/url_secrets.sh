# SPDX-License-Identifier: MIT
# A password written in a URL (user:password@) is refused where passwords
# belong in the credentials, and never shown: not by bootbench's messages
# (save's destinations, the Pushgateway URL, fetch-config's URL) nor by the
# boot parameters' checks, whose lines go to the console, to console.log on
# the stick and to BB_PARAM_ERRORS. Each message is one line that names the
# URL with *** in the password's place.
. tests/lib.sh
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"

# no_secret DESCRIPTION SECRET COMMAND...: exit 2, one line, with *** and without SECRET
no_secret() {
	_d=$1 _s=$2; shift 2
	"$@" > "$T/out" 2> "$T/err" < /dev/null
	_rc=$?
	if [ $_rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && ! grep -qF -- "$_s" "$T/out" "$T/err" &&
		grep -qF '***' "$T/err"; then
		ok "$_d"
	else
		bad "$_d: exit $_rc: $(cat "$T/err" "$T/out" | head -c 400)"
	fi
}
no_secret "save --check: an SMB URL with a password" S3cret "$BB" save --check "smb://alice:S3cret@fs1/results/r1"
no_secret "save: a WebDAV URL with a password" 'p4ss' "$BB" save --stick=none "https://bob:p4ss@127.0.0.1:1/dav/" "$T"
no_secret "save: a password holding / and @" 'se/cr@et' "$BB" save --check "smb://carol:se/cr@et@fs1/share"
mkdir -p "$T/r"
no_secret "run --metrics: a Pushgateway URL with a password" hunter2 \
	"$BB" run --name=j --filename="$T/r/f" --size=1M --rw=read --metrics=http://bob:hunter2@127.0.0.1:9091
check "... named once, not garbled" sh -c "[ \$(grep -o '127.0.0.1:9091' '$T/err' | wc -l) = 1 ]"
no_secret "fetch-config: a URL with a password and an unknown variable" 'z3cret' \
	"$BB" fetch-config 'http://u:z3cret@127.0.0.1:1/${nope}' "$T/conf"

# the boot parameters' checks, as /init runs them
mkdir -p "$T/root/etc/bootbench"
cp rootfs/etc/bootbench/params "$T/root/etc/bootbench/params"
params() { # CMDLINE: prints BB_PARAM_ERRORS and every logged line
	printf '%s\n' "$1" > "$T/cmdline"
	ROOT="$T/root" CMDLINE="$T/cmdline" BB_RUNDIR="$T/run" BOOTBENCH="$BB" $SH -c '
		. rootfs/lib/bootbench/boot.sh
		BB_PARAM_ERRORS=""
		params_from_cmdline
		echo "ERRORS: $BB_PARAM_ERRORS"' 2>&1
}
params "bootbench.metrics=http://bob:pw0rd@10.0.0.5:9091" > "$T/p"
check "bootbench.metrics with a password is refused" grep -q 'ERRORS: .*no user or password' "$T/p"
check "... and the password is in no line" sh -c "! grep -q pw0rd '$T/p'"
params "bootbench.save=smb://alice:S3cret@fs1/results" > "$T/p"
check "bootbench.save with a password is refused" grep -q 'ERRORS: .*no password in the URL' "$T/p"
check "... and the password is in no line" sh -c "! grep -q S3cret '$T/p'"
params "bootbench.conf=ftp://u:S3cret@fs1/c" > "$T/p"
check "bootbench.conf's refusal shows the URL without its password" sh -c "grep -qF 'ftp://u:***@fs1/c' '$T/p' && ! grep -q S3cret '$T/p'"
out=$($SH -c '. rootfs/lib/bootbench/boot.sh; redact_url "https://a:b@c@host/p"; redact_url "nfs://host:2049/x"; redact_url "usb"')
check "redact_url: the password up to the first @, a port is no password, plain words as they are" \
	[ "$out" = "https://a:***@c@host/p
nfs://host:2049/x
usb" ]
finish
