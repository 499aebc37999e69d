# bootbench.ssh_key: the operator's way in from a desk. Debian's dropbear on
# port 22 letting in the keys of bootbench.ssh_key only (fetched over https,
# verified against bootbench.ca, or read from the stick; every line checked
# by bootbench ssh-keys before dropbear reads it), no password logins; root's
# shell is the consoles' shell, where `bootbench menu` is the menu. The host
# key is made at boot, or kept on the stick (bootbench.ssh_hostkeys=stick)
# so a machine keeps its identity; its fingerprint is logged here, shown by
# the menu's Remote access entry and saved with every result
# (ssh-host-key.txt), so the operator can check the first connection.
# Keys that cannot be fetched or do not parse: no ssh server, and no
# unattended run (a wrong boot parameter, as any other).
BB_SSH_DIR=$BB_RUNDIR/ssh

ssh_refuse() {
	log "ssh: $*; no ssh server"
	BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }$*"
}

# The stick, mounted read-write for results: 40-media.sh names it the
# results medium only once the kernel made the mount read-write
stick_writable() { grep -q '^results ' "$BB_RUNDIR/media" 2>/dev/null; }

# The host key into $BB_SSH_DIR/host_key: the stick's (ssh_hostkeys=stick),
# or a new one, kept on the stick when asked to.
ssh_host_key() {
	key=$BB_SSH_DIR/host_key
	if [ "${BB_SSH_HOSTKEYS:-boot}" = stick ]; then
		if stick_writable; then
			kept=$BB_MEDIA/ssh/dropbear_ed25519_host_key
			if [ -f "$kept" ] && [ ! -L "$kept" ]; then
				cp "$kept" "$key"
				dropbearkey -y -f "$key" >/dev/null 2>&1 ||
					{ log "ssh: the stick's host key (ssh/dropbear_ed25519_host_key) is not a dropbear key: a new one replaces it"; rm -f "$key"; }
			fi
			if [ ! -s "$key" ]; then
				dropbearkey -t ed25519 -f "$key" >/dev/null 2>&1 &&
					mkdir -p "$BB_MEDIA/ssh" && cp "$key" "$kept.part" && mv "$kept.part" "$kept" && sync -f "$BB_MEDIA" &&
					log "ssh: a new host key, kept on the stick (ssh/dropbear_ed25519_host_key)"
			fi
		else
			log "ssh: bootbench.ssh_hostkeys=stick, but no stick is mounted read-write: this boot's host key is new"
		fi
	fi
	[ -s "$key" ] || dropbearkey -t ed25519 -f "$key" > "$BB_SSH_DIR/keygen.log" 2>&1
	[ -s "$key" ] || { log "ssh: dropbearkey: $(tail -n1 "$BB_SSH_DIR/keygen.log")"; return 1; }
}

ssh_start() {
	(umask 077; mkdir -p "$BB_SSH_DIR" /root/.ssh)
	keys=$BB_SSH_DIR/authorized_keys.in
	case "$BB_SSH_KEY" in
	https://*)
		wait_for_address 30 || { ssh_refuse "no network address after 30 s to fetch bootbench.ssh_key=$(redact_url "$BB_SSH_KEY")"; return; }
		ca_ready
		fetch "$BB_SSH_KEY" "$keys" || { ssh_refuse "cannot fetch bootbench.ssh_key=$(redact_url "$BB_SSH_KEY")"; return; } ;;
	*)
		grep -q '^results ' "$BB_RUNDIR/media" 2>/dev/null || mountpoint -q "$BB_MEDIA" ||
			{ ssh_refuse "bootbench.ssh_key=$BB_SSH_KEY: no stick to read it from"; return; }
		keys=$BB_MEDIA/${BB_SSH_KEY#/} ;;
	esac
	if ! bootbench ssh-keys --output=/root/.ssh/authorized_keys "$keys" > "$BB_SSH_DIR/keys.txt" 2> "$BB_SSH_DIR/keys.err"; then
		ssh_refuse "bootbench.ssh_key: $(sed 's/^bootbench: ssh-keys: //; s#^'"$BB_RUNDIR"'/ssh/authorized_keys.in#the fetched file#' "$BB_SSH_DIR/keys.err" | head -n1)"
		rm -f /root/.ssh/authorized_keys
		return
	fi
	if ! command -v dropbear >/dev/null; then
		ssh_refuse "bootbench.ssh_key: cannot run dropbear: $(awk '$1 == "dropbear" { printf "it is in the %s pack (%s), which this boot did not load", $2, $3 }' /etc/bootbench/packs)"
		rm -f /root/.ssh/authorized_keys
		return
	fi
	ssh_host_key || { ssh_refuse "dropbearkey could not make a host key"; return; }
	dropbearkey -y -f "$BB_SSH_DIR/host_key" 2>/dev/null | grep '^ssh-' > "$BB_SSH_DIR/host_key.pub"
	bootbench ssh-keys "$BB_SSH_DIR/host_key.pub" | awk '{ print $1, $3 }' > "$BB_RUNDIR/ssh-host-key.txt"
	# -s: no password logins at all; -F -E: in the foreground of its
	# subshell, its messages (logins, refusals) into this boot's log
	(dropbear -F -E -s -p 22 -r "$BB_SSH_DIR/host_key" 2>&1 | while IFS= read -r l; do log "ssh: $l"; done) &
	log "ssh: dropbear on port 22, $(wc -l < "$BB_SSH_DIR/keys.txt") key(s) let in ($(awk '{ printf "%s%s%s", s, ($4 == "" ? "" : $4 " "), $3; s = ", " }' "$BB_SSH_DIR/keys.txt")), no passwords"
	log "ssh: host key $(cat "$BB_RUNDIR/ssh-host-key.txt")$(ip -4 -o addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); printf "%s%s", (n++ ? ", " : "; addresses "), $4 }')"
}

[ -z "${BB_SSH_KEY:-}" ] || ssh_start
