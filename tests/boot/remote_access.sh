# SPDX-License-Identifier: MIT
# Boot test (issue 36): the operator's reach, one stick booted twice.
# Boot 1, unattended (bootbench.run=inventory, after=menu), its bootbench.conf
# naming ssh keys served over https by the test's nginx (verified against the
# CA the config names), the host key kept on the stick, the German keymap,
# the menu on a second serial port at 115200, a hook before the run (from
# the stick) and one after (over https), each with its SHA-256:
#   - Debian's OpenSSH client logs in with the key through a QEMU port
#     forward and runs bootbench disks; the server offers no password login;
#     another key is refused; the fingerprint on the console is the one the
#     client saw (ssh-keyscan); bootbench menu draws the menu over ssh;
#   - keys typed through QEMU's sendkey on tty2 reach the shell as the de
#     layout's characters (y and z swapped, Shift+7 a slash);
#   - the menu is on ttyS1, a shell there answers at 115200;
#   - the results on the stick hold both hooks' logs, the file the first
#     wrote, what the second saw, their exit statuses, the host key's
#     fingerprint.
# Boot 2: the same stick presents the same host key.
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands nginx openssl python3 ssh ssh-keygen ssh-keyscan tmux mkfifo
# the host end of the forward to the guest's ssh server (22 there: the guest's own network)
free_port SSH_PORT || { bad "a free port for the forward"; finish; }
start_webdav || { bad "nginx starts"; finish; }
mkdir -p "$T/www" "$T/dav/pub" "$T/hooks"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
ssh-keygen -q -t ed25519 -N '' -C operator@desk -f "$T/id"
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$T/other"
{ echo "# the operators"; cat "$T/id.pub"; } > "$T/dav/pub/keys"
cat > "$T/hooks/before.sh" <<'HOOK'
echo "before: run $BOOTBENCH_RUN, results $BOOTBENCH_RESULTS, consent '$BOOTBENCH_DESTROY'"
echo "written by the hook before the run" > "$BOOTBENCH_RESULTS/from-hook.txt"
HOOK
cat > "$T/dav/pub/after.sh" <<'HOOK'
echo "after: in $(pwd)"
ls > after-saw.txt
HOOK
sum() { sha256sum "$1" | cut -d' ' -f1; }
stick_with_conf "$T/stick.img" run=inventory after=menu save=usb \
	"ssh_key=https://10.0.2.2:$DAV_PORT/pub/keys" "ca=http://10.0.2.2:$HTTP_PORT/ca.crt" ssh_hostkeys=stick \
	keymap=de console=ttyS1,115200 \
	"hook_before=hooks/before.sh#sha256=$(sum "$T/hooks/before.sh")" \
	"hook_after=https://10.0.2.2:$DAV_PORT/pub/after.sh#sha256=$(sum "$T/dav/pub/after.sh")"
mmd -i "$T/stick.img@@1M" ::/hooks && mcopy -i "$T/stick.img@@1M" "$T/hooks/before.sh" ::/hooks/before.sh
truncate -s 64M "$T/d1.img"

SSH="ssh -p $SSH_PORT -o UserKnownHostsFile=$T/known -o StrictHostKeyChecking=accept-new -o BatchMode=yes -o ConnectTimeout=20"
mkfifo "$T/s1.in" "$T/s1.out"
# boot BOOT-N: the stick in the background, ttyS1 read into $T/s1.log
start_guest() {
	: > "$T/serial.log"; : > "$T/s1.log"
	scripts/qemu.sh $(direct) --usb "$T/stick.img" --disk virtio:"$T/d1.img" --serial "$T/serial.log" --serial2 "$T/s1" \
		--forward "$SSH_PORT:22" --monitor "$T/mon" --timeout "$BOOT_LIMIT" &
	QPID=$!
	cat "$T/s1.out" > "$T/s1.log" &
	exec 7> "$T/s1.in"
}
stop_guest() {
	pkill -TERM -f "qemu-system.*file:$T/serial.log"; wait $QPID 2>/dev/null
	exec 7>&-
	keep_serial
}
# until LOG PATTERN SECONDS
until_log() {
	i=0
	while ! tr -d '\r' < "$1" | grep -q -- "$2"; do
		i=$((i + 1)); [ $i -lt $(($3 * 2)) ] && kill -0 $QPID 2>/dev/null || return 1; sleep 0.5
	done
}
host_key_line() { tr -d '\r' < "$T/serial.log" | sed -n 's/.*ssh: host key \(ssh-ed25519 SHA256:[A-Za-z0-9+/]*\).*/\1/p' | tail -n1; }
scanned_key() { ssh-keyscan -p $SSH_PORT -t ed25519 127.0.0.1 2>/dev/null | ssh-keygen -lf - | awk '{ print $2 }'; }

start_guest
if until_log "$T/serial.log" 'unattended run finished' 240 && until_log "$T/serial.log" 'ssh: host key' 30; then
	ok "boot 1: the unattended run finished, ssh is up"
	check "the console logged the keymap" grep -q 'keyboard: German (de)' "$T/serial.log"
	check "the console names the key let in" grep -qF "ssh: dropbear on port 22, 1 key(s) let in (operator@desk $(ssh-keygen -lf "$T/id.pub" | awk '{ print $2 }'))" "$T/serial.log"
	check "the client logs in with the key and runs bootbench disks" sh -c "$SSH -i '$T/id' root@127.0.0.1 bootbench disks > '$T/disks.txt' 2>&1 && grep -q BBVIRTIO '$T/disks.txt'"
	cat "$T/disks.txt"
	$SSH -v -o PreferredAuthentications=none -o PubkeyAuthentication=no root@127.0.0.1 true > "$T/none.txt" 2>&1
	grep -i 'authentications\|password' "$T/none.txt"
	check "the server offers public keys only, no password" sh -c "tr -d '\r' < '$T/none.txt' | grep -qx 'debug1: Authentications that can continue: publickey' && ! grep -q 'password' '$T/none.txt'"
	check "another key is refused" sh -c "! $SSH -i '$T/other' -o IdentitiesOnly=yes root@127.0.0.1 true 2>'$T/other.txt' && grep -q 'Permission denied (publickey)' '$T/other.txt'"
	BOOT1_KEY=$(host_key_line)
	SEEN=$(ssh-keygen -lf "$T/known" | awk '{ print $2 }')
	check "the console's fingerprint is the one the client saw ($SEEN)" test -n "$SEEN" -a "${BOOT1_KEY#ssh-ed25519 }" = "$SEEN"
	# bootbench menu in a terminal over ssh
	TM="tmux -L bbssh$$"
	$TM new-session -d -s ssh -x 80 -y 24 "$SSH -tt -i '$T/id' root@127.0.0.1 bootbench menu; sleep 30"
	# up to a minute: the login and dialog's start took over 20 s in a fresh root's loaded suite
	# (the menu was there by the next check), and the wait ends as soon as the menu is drawn
	# (for the entry itself: the list is drawn after the prompt, and a loaded host's capture caught
	# the prompt alone)
	i=0; while ! $TM capture-pane -p -t ssh | grep -q 'Remote access (ssh' && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
	if $TM capture-pane -p -t ssh | grep -q 'Remote access (ssh'; then ok "bootbench menu draws the menu over ssh"
	else bad "bootbench menu draws the menu over ssh"; $TM capture-pane -p -t ssh | grep -v '^ *$' | tail -n 12; fi
	sleep 2	# dialog drops what is typed while it starts
	$TM send-keys -t ssh $(seq 11 | sed 's/.*/Down/') Enter
	i=0; while ! $TM capture-pane -p -t ssh | grep -q 'Host key (compare' && [ $i -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
	$TM capture-pane -p -t ssh | grep -v '^ *$'
	check "its Remote access screen shows the host key's fingerprint" sh -c "$TM capture-pane -p -t ssh | grep -qF '${BOOT1_KEY#ssh-ed25519 }'"
	check "... and the address to ssh to" sh -c "$TM capture-pane -p -t ssh | grep -q 'ssh root@10.0.2.15'"
	$TM kill-server 2>/dev/null
	# the de layout on tty2: "echo zy >/tmp/k" typed as a German keyboard's keys
	# (Enter activates tty2's console, init's askfirst; the line is typed once
	# its shell is up, and the file awaited: a loaded host's guest is slow)
	$SSH -i "$T/id" root@127.0.0.1 chvt 2
	on_tty2='for p in /proc/[0-9]*; do [ "$(readlink $p/fd/0)" = /dev/tty2 ] && tr "\0" " " < $p/cmdline && echo; done'
	i=0
	until $SSH -i "$T/id" root@127.0.0.1 "$on_tty2" | grep -q 'sh' || [ $i -ge 15 ]; do
		monitor "$T/mon" "sendkey ret" > /dev/null; sleep 1; i=$((i + 1))
	done
	for k in e c h o spc y z spc shift-less shift-7 t m p shift-7 k ret; do monitor "$T/mon" "sendkey $k" > /dev/null; done
	i=0
	until $SSH -i "$T/id" root@127.0.0.1 test -s /tmp/k || [ $i -ge 20 ]; do sleep 0.5; i=$((i + 1)); done
	$SSH -i "$T/id" root@127.0.0.1 'echo "tty2 typed: $(cat /tmp/k 2>&1)"; echo "foreground console: $(fgconsole 2>&1)"; echo "on tty2: $('"$on_tty2"')"; grep i8042 /proc/interrupts'
	check "keys typed on tty2 reach the shell in the de layout (y z -> zy, Shift+7 -> /)" sh -c "[ \"\$($SSH -i '$T/id' root@127.0.0.1 cat /tmp/k)\" = zy ]"
	# the menu on ttyS1, and a shell there at 115200
	check "the menu is on ttyS1" until_log "$T/s1.log" 'ready on /dev/ttyS1' 20
	sleep 3	# dialog drops what is typed while it starts
	printf '7\r' >&7; sleep 2
	printf 'echo serial-$((6*7)) at $(stty speed)\r' >&7
	check "a shell from the ttyS1 menu answers at 115200" until_log "$T/s1.log" 'serial-42 at 115200' 20
	$SSH -i "$T/id" root@127.0.0.1 poweroff > /dev/null 2>&1
	i=0; while kill -0 $QPID 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
	stop_guest
	if fetch_results "$T/stick.img" > /dev/null; then
		R=$T/results
		check "hook_before's output is in the results" grep -q "^before: run inventory, results /run/bootbench/results/" "$R/hook-before.log"
		check "the file hook_before wrote is in the results" grep -q 'written by the hook before the run' "$R/from-hook.txt"
		check "hook_after saw the run's results (its working folder)" sh -c "grep -q '^after: in /run/bootbench/results/' '$R/hook-after.log' && grep -qx from-hook.txt '$R/after-saw.txt' && grep -qx inventory.json '$R/after-saw.txt'"
		check "status.json: both hooks' exit status 0, the run's 0" json "$R/status.json" "d['hook_before_status'] == 0 and d['hook_after_status'] == 0 and d['exit_status'] == 0"
		check "the results carry the host key's fingerprint" [ "$(cat "$R/ssh-host-key.txt" 2>/dev/null)" = "$BOOT1_KEY" ]
	else
		bad "boot 1's results are on the stick"
	fi
	check "the host key is kept on the stick" sh -c "mdir -b -i '$T/stick.img@@1M' ::/ssh/ | grep -q dropbear_ed25519_host_key"
else
	bad "boot 1: the unattended run finished and ssh came up"
	stop_guest
	serial_failure
	finish
fi

# Boot 2: the same identity
printf '%s\n' "ssh_key=https://10.0.2.2:$DAV_PORT/pub/keys" "ca=http://10.0.2.2:$HTTP_PORT/ca.crt" ssh_hostkeys=stick > "$T/bootbench.conf"
mcopy -o -i "$T/stick.img@@1M" "$T/bootbench.conf" ::/bootbench.conf
start_guest
if until_log "$T/serial.log" 'ssh: host key' 120; then
	i=0; while [ -z "$(scanned_key)" ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
	check "boot 2 presents the same host key (console)" [ "$(host_key_line)" = "$BOOT1_KEY" ]
	check "boot 2 presents the same host key (ssh-keyscan)" [ "$(scanned_key)" = "$SEEN" ]
	check "the known host is still good: a login succeeds without a warning" $SSH -i "$T/id" -o StrictHostKeyChecking=yes root@127.0.0.1 true
else
	bad "boot 2: ssh came up"
	serial_failure
fi
stop_guest
finish
