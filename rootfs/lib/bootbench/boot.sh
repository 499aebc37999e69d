# SPDX-License-Identifier: MIT
# Shared by /init and its steps: logging, the rescue shell, and the boot
# parameter whitelist (/etc/bootbench/params). Paths go through $ROOT and the
# command line through $CMDLINE so tests can run this on the build host.
ROOT=${ROOT:-}
CMDLINE=${CMDLINE:-$ROOT/proc/cmdline}
BB_RUNDIR=${BB_RUNDIR:-$ROOT/run/bootbench}
BB_LOG=$BB_RUNDIR/console.log

log() {
	up=$(cut -d' ' -f1 "$ROOT/proc/uptime" 2>/dev/null)
	echo "bootbench: [${up:-?}] $*"
	[ -w "$ROOT/dev/kmsg" ] && echo "<5>bootbench: $*" > "$ROOT/dev/kmsg" 2>/dev/null
	return 0
}

# copy_log DEST LINE: the console log copied to DEST once it holds LINE, the
# last one logged. The log reaches its file through the pipe and tee, a
# moment after log() returns: a copy taken at once can lack the last lines.
# Waits 5 s at most, then copies what is there.
copy_log() {
	i=0
	while ! grep -qF "$2" "$BB_LOG" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	cp "$BB_LOG" "$1"
}

# A failed step: say so, and give the console a shell. Leaving the shell
# goes on with the boot (the consoles), so a fixed problem needs no reboot.
rescue() {
	log "FAILED: $*"
	log "dropping to a shell; 'exit' continues the boot"
	setsid cttyhack sh -l </dev/console >/dev/console 2>&1
}

# Everything logged so far reaches the consoles before a power-off: our end
# of the log pipe closes, and we wait for tee itself to write out the rest
# and exit. At 115200 baud a full pipe (64 KiB) and tee's own buffer take
# about 6 s per serial console; the wait is bounded (TEE_WAIT_S, 120 s) only
# so that a stray writer holding the pipe cannot hang a rack. Then each
# console's UART is drained (stty sets its own settings again with
# tcsetattr(TCSADRAIN), which returns once the last byte is sent).
console_flush() {
	exec >/dev/console 2>&1
	i=0
	while [ -n "${BB_TEE_PID:-}" ] && kill -0 "$BB_TEE_PID" 2>/dev/null; do
		[ $i -lt $((${TEE_WAIT_S:-120} * 10)) ] || { log "console: the log's tee is still writing after ${TEE_WAIT_S:-120} s"; break; }
		sleep 0.1; i=$((i + 1))
	done
	# the log is whole now: bootbench.syslog's last lines go out while the UARTs drain
	syslog_stop
	for c in ${BB_CONSOLES:-}; do
		stty -F "$c" "$(stty -F "$c" -g 2>/dev/null)" 2>/dev/null
	done
}

# bootbench.syslog: this boot's log streamed to a syslog server by
# bootbench syslog, from the first line of the kernel's log and of
# console.log (it keeps what the network cannot take yet). Started as soon
# as the parameter is known: from the command line before the network
# (25-syslog.sh), from bootbench.conf or the fetched config once they are
# read (40-media.sh). Its output goes to the screen, never into the log's
# pipe: a writer holding the pipe would keep console_flush's tee alive.
# A tls:// server is verified against bootbench.ca when one is given: then
# the stream starts once that CA is read (40-media.sh's call, through
# 35-config.sh's ca_ready), still from the logs' first lines; without
# bootbench.ca, against the image's CA bundle at once.
syslog_start() {
	[ -n "${BB_SYSLOG:-}" ] && [ ! -e "$BB_RUNDIR/syslog.pid" ] || return 0
	ca=""
	case "$BB_SYSLOG" in
	tls://*)
		if [ -n "${BB_CA:-}" ]; then
			command -v ca_ready >/dev/null && ca_ready
			[ -n "${BB_CA_FILE:-}" ] || { log "syslog: $BB_SYSLOG waits for bootbench.ca to verify it"; return 0; }
			ca=$BB_CA_FILE
		fi ;;
	esac
	"${BOOTBENCH:-bootbench}" syslog --to="$BB_SYSLOG" ${ca:+--ca="$ca"} --format="${BB_SYSLOG_FORMAT:-rfc5424}" "$BB_LOG" \
		</dev/null >/dev/console 2>&1 &
	echo $! > "$BB_RUNDIR/syslog.pid"
	log "syslog: this boot's log goes to $BB_SYSLOG"
}

# Before a power-off: bootbench syslog sends what is left (5 s at most, not
# at all when the server cannot be reached); waited for 10 s at most.
syslog_stop() {
	[ -r "$BB_RUNDIR/syslog.pid" ] || return 0
	pid=$(cat "$BB_RUNDIR/syslog.pid")
	rm -f "$BB_RUNDIR/syslog.pid"
	kill -TERM "$pid" 2>/dev/null || return 0
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	log "syslog: stopped, after $((i / 10)).$((i % 10)) s"
}

# Whether a console= device is there to write to: a ttyS port the kernel
# named but no UART answers (no serial port on this machine) is not.
console_usable() { # /dev/NAME
	[ -c "$1" ] && stty -F "$1" >/dev/null 2>&1
}

# serial_console VALUE: "ttyS1 115200" for ttyS1[,SPEED[n8]] (the speed
# empty when not given); fails for anything else. The port is a name, never
# a path.
serial_console() {
	port=${1%%,*} speed=""
	[ "$port" = "$1" ] || speed=${1#*,}
	speed=${speed%n8}
	case "$port" in ttyS[0-9]|ttyS[0-9][0-9]|hvc[0-9]|ttyAMA[0-9]) ;; *) return 1 ;; esac
	case "$speed" in ''|9600|19200|38400|57600|115200) ;; *) return 1 ;; esac
	echo "$port $speed"
}

# Parameter whitelist: the lines of /etc/bootbench/params.
params_table() { grep -v '^[[:space:]]*#' "$ROOT/etc/bootbench/params" | awk 'NF { print $1, $2, $3 }'; }

# A URL for a message: a password written in it (user:password@) shown as
# ***, as bootbench's url_redact does; anything else as given.
redact_url() { # text
	case "$1" in
	*://*:*@*) printf '%s\n' "$1" | sed 's#^\([^:]*://[^:@]*:\)[^@]*@#\1***@#' ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# ipv4_prefix A.B.C.D/N: true for four numbers 0-255 and a prefix 1-32
ipv4_prefix() {
	case "$1" in */*) ;; *) return 1 ;; esac
	echo "$1" | awk -F'[./]' 'NF != 5 { exit 1 }
		{ for (i = 1; i <= 5; i++) if ($i !~ /^[0-9]+$/ || length($i) > 3) exit 1
		  for (i = 1; i <= 4; i++) if ($i + 0 > 255) exit 1
		  if ($5 + 0 < 1 || $5 + 0 > 32) exit 1 }'
}

# Checks one value against its rule; prints the reason when it does not fit.
param_check() { # name value
	# a value with user:password@ in it is shown redacted (no subshell for the rest: every boot checks them all)
	case "$2" in *://*:*@*) shown=$(redact_url "$2") ;; *) shown=$2 ;; esac
	rule=$(params_table | awk -v n="$1" '$1 == n { print $2 }')
	[ -n "$rule" ] || { echo "unknown boot parameter bootbench.$1 (known: $(params_table | awk '{ printf "%s ", $1 }'))"; return 1; }
	# An empty value clears the parameter (a boot menu entry can turn off
	# bootbench.conf's unattended run with bootbench.run=).
	[ -n "$2" ] || return 0
	case "$rule" in
	'<all-or-devices>')
		[ "$2" = all ] && return 0
		for d in $(echo "$2" | tr ',' ' '); do
			case "${d#/dev/}" in
			''|*[!A-Za-z0-9_/.-]*|*..*) echo "bootbench.$1=$shown: '$d' is not a device name (all, or /dev/X,/dev/Y)"; return 1 ;;
			esac
		done ;;
	'<profile-or-jobfile>')
		case "$2" in
		''|*[!A-Za-z0-9_/.-]*|*..*) echo "bootbench.$1=$shown: expected a profile name or a job file path on the stick"; return 1 ;;
		esac ;;
	'<raid-levels>')
		case "$2" in
		*[!A-Za-z0-9,-]*) echo "bootbench.$1=$shown: expected RAID levels, comma separated (e.g. 0,1,5,10)"; return 1 ;;
		esac ;;
	'<zfs-topologies>')
		for t in $(echo "$2" | tr ',' ' '); do
			case "$t" in
			stripe|mirror|raidz1|raidz2|raidz3) ;;
			*) echo "bootbench.$1=$shown: '$t' is not a ZFS topology (stripe, mirror, raidz1, raidz2, raidz3)"; return 1 ;;
			esac
		done ;;
	'<number>')
		case "$2" in
		*[!0-9.]*|.|*.*.*) echo "bootbench.$1=$shown: expected a number such as 0.02 or 1"; return 1 ;;
		esac ;;
	'<build-id>')
		case "$2" in
		*[!A-Za-z0-9.-]*|.*) echo "bootbench.$1=$shown: expected the build's id file name (bootbench-HEX.id)"; return 1 ;;
		esac ;;
	'<destinations>')
		# none alone; else each destination as bootbench save reads it
		[ "$2" = none ] && return 0
		"${BOOTBENCH:-bootbench}" save --check $(echo "$2" | tr ',' ' ') 2>&1 |
			sed 's/^bootbench: save: /bootbench.'"$1"': /' | grep . && return 1 ;;
	'<seconds>')
		case "$2" in
		*[!0-9]*) echo "bootbench.$1=$shown: expected whole seconds"; return 1 ;;
		esac ;;
	'<http-url>')
		case "$2" in
		http://*@*|https://*@*) echo "bootbench.$1=$shown: no user or password in the Pushgateway's URL"; return 1 ;;
		http://?*|https://?*) ;;
		*) echo "bootbench.$1=$shown: expected the Pushgateway as http://host:port"; return 1 ;;
		esac ;;
	'<config-url>'|'<path-or-url>')
		case "$2" in
		http://?*|https://?*|tftp://?*) ;;
		# a path on the stick (ca.crt or /certs/ca.crt), never out of it
		*://*|*..*|'') echo "bootbench.$1=$shown: expected $([ "$rule" = '<path-or-url>' ] && echo 'a path on the stick or ')an http://, https:// or tftp:// URL"; return 1 ;;
		*) [ "$rule" = '<path-or-url>' ] || { echo "bootbench.$1=$shown: expected an http://, https:// or tftp:// URL"; return 1; } ;;
		esac ;;
	'<dialect>')
		case "$2" in
		*[!0-9.]*) echo "bootbench.$1=$shown: expected an SMB dialect such as 3, 3.0, 3.02 or 3.1.1"; return 1 ;;
		esac ;;
	'<link-addresses>')
		# LINK=A.B.C.D/PREFIX, comma separated; LINK a kernel name or a MAC
		for a in $(echo "$2" | tr ',' ' '); do
			link=${a%%=*} addr=${a#*=}
			case "$link" in
			''|*[!A-Za-z0-9:._-]*|.*|*..*) echo "bootbench.$1=$shown: '$link' is not a link's name or MAC (LINK=ADDRESS/PREFIX)"; return 1 ;;
			esac
			ipv4_prefix "$addr" || { echo "bootbench.$1=$shown: '$addr' is not an IPv4 address with its prefix (10.0.0.2/24)"; return 1; }
		done ;;
	'<burnin-components>'|'<burnin-phases>'|'<duration>'|'<host-port>'|'<burnin-limit>')
		# bootbench burnin checks its own flags (a limit's range is burnin/limits.c's: asked, not copied)
		case "$rule" in
		'<burnin-components>') flag=--components=$2 ;;
		'<burnin-phases>') flag=--phases=$2 ;;
		'<duration>') flag=--duration=$2 ;;
		'<host-port>') flag=--iperf=$2 ;;
		*) flag=--limits=${1#burnin_}=$2 ;;
		esac
		"${BOOTBENCH:-bootbench}" burnin --check "$flag" 2>&1 |
			sed 's/^bootbench: burnin: /bootbench.'"$1"': /' | grep . && return 1 ;;
	'<erase-method>'|'<erase-verify>'|'<operator-name>')
		# bootbench erase's own checks, asked (one rule, in C)
		case "$rule" in
		'<erase-method>') flag=--method=$2 ;;
		'<erase-verify>') flag=--verify=$2 ;;
		*) flag=--operator=$2 ;;
		esac
		"${BOOTBENCH:-bootbench}" erase --check "$flag" 2>&1 |
			sed 's/^bootbench: erase: /bootbench.'"$1"': /' | grep . && return 1 ;;
	'<key-path-or-https>')
		# a private key: from the stick, or over HTTPS only (never in clear on the wire)
		case "$2" in
		https://?*) ;;
		*://*|*..*|'') echo "bootbench.$1=$shown: expected a path on the stick or an https:// URL"; return 1 ;;
		esac ;;
	'<ntp-server>')
		# a name or an address for ntpd -p, never a word the shell or ntpd reads otherwise
		case "$2" in
		off) ;;
		-*|*[!A-Za-z0-9.:-]*) echo "bootbench.$1=$shown: expected an NTP server as HOST or HOST:PORT, or off"; return 1 ;;
		esac ;;
	'<syslog-url>')
		# bootbench syslog's own parser, asked (one rule, in C)
		"${BOOTBENCH:-bootbench}" syslog --check --to="$2" 2>&1 |
			sed 's/^bootbench: syslog: /bootbench.'"$1"': /' | grep . && return 1 ;;
	'<keymap>')
		# the names the image has (image/keymaps.table at build time)
		case "$2" in
		*[!a-z0-9-]*|-*) ;;
		*) grep -q "^$2 " "$ROOT/usr/share/bootbench/keymaps/list" 2>/dev/null && return 0 ;;
		esac
		echo "bootbench.$1=$shown: not a keyboard layout of this image (known: $(cut -d' ' -f1 "$ROOT/usr/share/bootbench/keymaps/list" 2>/dev/null | paste -sd' ' -))"
		return 1 ;;
	'<serial-console>')
		serial_console "$2" >/dev/null || { echo "bootbench.$1=$shown: expected a serial port and its speed, e.g. ttyS1,115200 (speeds 9600 19200 38400 57600 115200)"; return 1; } ;;
	'<hook>')
		# LOCATION#sha256=HEX: what runs is what the operator named, byte for byte
		loc=${2%%#*} sum=${2#*#sha256=}
		case "$2" in *'#sha256='*) ;; *) sum="" ;; esac
		case "$sum" in
		????????????????????????????????????????????????????????????????) case "$sum" in *[!0-9a-f]*) sum="" ;; esac ;;
		*) sum="" ;;
		esac
		[ -n "$sum" ] || { echo "bootbench.$1=$shown: expected LOCATION#sha256=HEX, HEX the script's SHA-256 (64 lower-case hex digits: sha256sum)"; return 1; }
		case "$loc" in
		https://?*) ;;
		*://*|*..*|'') echo "bootbench.$1=$shown: the script's location is a path on the stick or an https:// URL"; return 1 ;;
		esac ;;
	'<modules>')
		case "$2" in
		''|*[!A-Za-z0-9_,-]*) echo "bootbench.$1=$shown: expected module names, comma separated"; return 1 ;;
		esac ;;
	*)
		case "|$rule|" in
		*"|$2|"*) ;;
		*) echo "bootbench.$1=$shown: expected one of $rule"; return 1 ;;
		esac ;;
	esac
	return 0
}

# Sets BB_<NAME> from NAME=VALUE words; keeps an earlier value when $1 is
# "keep" (the command line is read first and wins over bootbench.conf).
# Wrong ones are appended to BB_PARAM_ERRORS and logged.
param_set() { # keep|replace source name=value
	name=${3%%=*} value=${3#*=}
	[ "$name" != "$3" ] || value=""
	# Checked before any lookup: awk reads escapes in a -v value (r\165n is
	# run) and eval would meet the rest (a shell error ends PID 1).
	case "$name" in
	''|*[!a-z_]*)
		why="bad boot parameter name 'bootbench.$name' ($2): names are lower-case letters and _"
		log "$why"
		BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }$why"
		return 0 ;;
	esac
	if [ "$name" = credential ]; then
		credential_add "$2" "$value"
		return 0
	fi
	var=BB_$(echo "$name" | tr 'a-z' 'A-Z')
	if ! why=$(param_check "$name" "$value"); then
		log "bad boot parameter ($2): $why"
		BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }$why"
		return 0
	fi
	if [ "$1" = keep ] && eval "[ -n \"\${$var+set}\" ]"; then
		return 0
	fi
	eval "$var=\$value"
}

# A credential= line: "URL PASSWORD" into the root-only credentials file
# bootbench save reads. Never from the kernel command line (every process
# can read /proc/cmdline), never logged: an error names the URL only.
credential_add() { # source value
	url=${2%% *}
	if [ "$1" = "kernel command line" ]; then
		why="bootbench.credential is not taken from the kernel command line (any process can read it): put it in bootbench.conf or the fetched config"
	elif [ "$url" = "$2" ] || ! "${BOOTBENCH:-bootbench}" save --check-credential="$url" >/dev/null 2>&1; then
		why="credential ($1): expected 'credential=URL PASSWORD' with URL such as smb://user@host or https://user@host"
	else
		(umask 077; mkdir -p "$BB_RUNDIR" && printf '%s\n' "$2" >> "$BB_RUNDIR/credentials")
		return 0
	fi
	log "bad boot parameter: $why"
	BB_PARAM_ERRORS="${BB_PARAM_ERRORS:+$BB_PARAM_ERRORS; }$why"
}

params_from_cmdline() {
	for w in $(cat "$CMDLINE"); do
		case "$w" in bootbench.*) param_set replace "kernel command line" "${w#bootbench.}" ;; esac
	done
}

params_from_conf() { # file
	[ -r "$1" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		line=$(echo "$line" | tr -d '\r' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		case "$line" in ''|'#'*) continue ;; esac
		param_set keep "bootbench.conf" "${line#bootbench.}"
	done < "$1"
}

# Defaults for whatever neither source set.
params_defaults() {
	eval "$(params_table | awk '$3 != "-" { v="BB_" toupper($1); printf "[ -n \"${%s+set}\" ] || %s=%s\n", v, v, $3 }')"
}

# The wired links as bootbench.ip and bootbench.net say: 30-network.sh from
# the command line, then 43-network.sh once bootbench.conf (the stick's) and
# a fetched config are read, as either may set them (a stick's ip= for a
# back-to-back cable, its net=off). A link with a fixed address gets it (a
# DHCP client started on it before is stopped, its lease's address
# flushed); the others DHCP in the background, unless net=off, which stops
# the clients started before. A link already as wanted is left as it is.
# fixed_address IFC MAC: the address bootbench.ip gives this link, if any
fixed_address() {
	for fixed in $(echo "${BB_IP:-}" | tr ',' ' '); do
		fixed_link=${fixed%%=*}
		[ "$fixed_link" = "$1" ] || [ "$(echo "$fixed_link" | tr A-F a-f)" = "$2" ] || continue
		echo "${fixed#*=}"; return
	done
}
# dhcp_stop IFC: its DHCP client stopped (waited for: udhcpc reads the
# signal only once a run of its script has ended, and that run may add the
# lease's address), then the addresses flushed, the link off
# $BB_RUNDIR/dhcp-links and its lease's file gone (the clock takes its NTP
# server from those, 35-config.sh the config it names)
dhcp_stop() {
	pkill -f "^udhcpc -i $1 " 2>/dev/null
	i=0
	while pgrep -f "^udhcpc -i $1 " >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	pkill -KILL -f "^udhcpc -i $1 " 2>/dev/null
	ip -4 addr flush dev "$1" 2>/dev/null
	sed -i "/^$1\$/d" "$BB_RUNDIR/dhcp-links" 2>/dev/null
	rm -f "$BB_RUNDIR/dhcp/$1" "$BB_RUNDIR/dhcp-conf/$1"
}
network_links() {
	for net_dev in /sys/class/net/*; do
		ifc=${net_dev##*/}
		[ -e "$net_dev/device" ] && [ ! -d "$net_dev/wireless" ] || continue
		addr=$(fixed_address "$ifc" "$(cat "$net_dev/address" 2>/dev/null)")
		dhcp_on=""
		grep -qx "$ifc" "$BB_RUNDIR/dhcp-links" 2>/dev/null && dhcp_on=yes
		if [ -n "$addr" ]; then
			# its DHCP stopped first, even where the lease gave this same address
			[ -z "$dhcp_on" ] || dhcp_stop "$ifc"
			ip -4 -o addr show dev "$ifc" 2>/dev/null | grep -q " inet $addr " && continue
			ip link set "$ifc" up
			if ip addr add "$addr" dev "$ifc" 2>/dev/null; then log "network: $ifc is $addr (bootbench.ip)"
			else log "network: $ifc: could not set $addr (bootbench.ip)"; fi
		elif [ "${BB_NET:-dhcp}" = dhcp ]; then
			[ -z "$dhcp_on" ] || continue
			ip link set "$ifc" up
			# -O ntpsrv: the NTP server a rack's DHCP names, for the clock (44-clock.sh);
			# -V bootbench -O pxeconffile: the config its DHCP names for bootbench (35-config.sh),
			# asked under a vendor class of its own, which a server tags to tell bootbench's
			# option 209 from PXELINUX's (the README's dnsmasq lines)
			udhcpc -i "$ifc" -b -S -s /usr/share/udhcpc/default.script -t 10 -T 2 -A 10 -O ntpsrv \
				-V bootbench -O pxeconffile \
				-x hostname:"$(hostname)" >/dev/null 2>&1 &
			echo "$ifc" >> "$BB_RUNDIR/dhcp-links"
			log "network: DHCP on $ifc in the background"
		elif [ -n "$dhcp_on" ]; then
			dhcp_stop "$ifc"
			log "network: DHCP stopped on $ifc (bootbench.net=off)"
		fi
	done
}
