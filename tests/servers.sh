# SPDX-License-Identifier: MIT
# servers.sh - the real servers the save tests talk to, from Debian's
# packages, each with a configuration of its own under $T, listening on
# 127.0.0.1 only (a QEMU guest reaches them at 10.0.2.2 through user-mode
# networking). Each start_* takes its ports from free_port (lib.sh) the
# first time, unless the test chose them before (to name them before the
# server is up); a server started again keeps its port. Each waits until its
# server answers and adds its pid to SERVER_PIDS, which lib.sh's cleanup
# stops; $GUARD stops it too if the test's shell is killed outright. Source
# after lib.sh.
DAV_PORT= HTTP_PORT= SMB_PORT= NFS_PORT= MNT_PORT= PUSH_PORT= PROM_PORT= AM_PORT= SYSLOG_PORT= SYSLOG_TLS_PORT=
# where nginx listens (start_webdav): loopback, or a test network's own
# address (a tap device's, for a guest on it, arm64_httpboot.sh)
SERVER_ADDR=${SERVER_ADDR:-127.0.0.1}
# the password every server knows for user "bench": a comma, quotes and a space
PASSWORD='pa,ss "wo'"'"'rd" 1'

# ports VAR...: free_port for each VAR not chosen yet
ports() {
	for _pv in "$@"; do
		eval "[ -n \"\$$_pv\" ]" || free_port "$_pv" || return 1
	done
}

# a port another server (a stale one, or ours started again while the last
# one lets go) already holds would answer for ours
port_free() { # port
	i=0
	while bash -c "exec 3<>/dev/tcp/$SERVER_ADDR/$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 50 ] || { echo "port $1 is already in use"; return 1; }; sleep 0.1
	done
}

wait_port() { # port seconds
	i=0
	while ! bash -c "exec 3<>/dev/tcp/$SERVER_ADDR/$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt $(($2 * 10)) ] || return 1; sleep 0.1
	done
}

# A CA and a server certificate for 127.0.0.1, 10.0.2.2, SERVER_ADDR and localhost.
make_ca() { # dir
	mkdir -p "$1"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1/ca.key" -out "$1/ca.crt" -subj /CN=bbtest-ca -days 2 2>/dev/null &&
	openssl req -newkey rsa:2048 -nodes -keyout "$1/server.key" -out "$1/server.csr" -subj /CN=localhost 2>/dev/null &&
	printf 'subjectAltName=IP:127.0.0.1,IP:10.0.2.2,%sDNS:localhost\n' \
		"$([ "$SERVER_ADDR" = 127.0.0.1 ] || echo "IP:$SERVER_ADDR,")" > "$1/san" &&
	openssl x509 -req -in "$1/server.csr" -CA "$1/ca.crt" -CAkey "$1/ca.key" -CAcreateserial -out "$1/server.crt" \
		-days 2 -extfile "$1/san" 2>/dev/null
}

# nginx with WebDAV over HTTPS, basic auth for bench, files under $T/dav;
# and plain HTTP on HTTP_PORT serving $T/www (per-host configs, the CA).
# DAV_ROOT may name another folder (a small filesystem for the full case);
# DAV_RATE (requests a second) holds each request back to that rate, so that
# a test can stop the server in the middle of an upload however fast the
# machine is.
start_webdav() {
	ports DAV_PORT HTTP_PORT || return 1
	port_free $DAV_PORT && port_free $HTTP_PORT || return 1
	d=$T/nginx
	mkdir -p "$d/tmp" "${DAV_ROOT:=$T/dav}" "$T/www"
	[ -f "$T/ca/server.crt" ] || make_ca "$T/ca" || return 1
	printf 'bench:%s\n' "$(openssl passwd -apr1 "$PASSWORD")" > "$d/htpasswd"
	cat > "$d/nginx.conf" <<CONF
daemon off;
user root;
worker_processes 1;
pid $d/nginx.pid;
error_log $d/error.log;
events {}
http {
	access_log $d/access.log;
	client_body_temp_path $d/tmp;
	${DAV_RATE:+limit_req_zone \$server_port zone=dav:1m rate=${DAV_RATE}r/s;}
	server {
		listen $SERVER_ADDR:$DAV_PORT ssl;
		ssl_certificate $T/ca/server.crt;
		ssl_certificate_key $T/ca/server.key;
		root $DAV_ROOT;
		location / {
			dav_methods PUT DELETE MKCOL COPY MOVE;
			dav_access user:rw group:rw all:r;
			client_max_body_size 0;
			${DAV_RATE:+limit_req zone=dav burst=100000;}
			auth_basic results;
			auth_basic_user_file $d/htpasswd;
		}
		# what a machine fetches before it has a password (an erase's signing key)
		location /pub/ {
			auth_basic off;
		}
	}
	server {
		listen $SERVER_ADDR:$HTTP_PORT;
		root $T/www;
	}
}
CONF
	$GUARD nginx -c "$d/nginx.conf" -p "$d" 2>"$d/stderr" &
	WEBDAV_PID=$!
	SERVER_PIDS="$SERVER_PIDS $WEBDAV_PID"
	wait_port $DAV_PORT 10 || { echo "nginx did not start:"; cat "$d/stderr" "$d/error.log"; return 1; }
}
stop_webdav() { kill "$WEBDAV_PID" 2>/dev/null; wait "$WEBDAV_PID" 2>/dev/null; }
# The server dies at once, as in a power cut. The master goes first: killed
# after its worker, it would start a new one that keeps the port.
kill_webdav() {
	workers=$(pgrep -P "$WEBDAV_PID")
	kill -KILL "$WEBDAV_PID" 2>/dev/null
	[ -z "$workers" ] || kill -KILL $workers 2>/dev/null
	wait "$WEBDAV_PID" 2>/dev/null
}

# smbd with share "results" (files under $T/smb) and "small" ($T/smb-small,
# for a test to put a small filesystem behind) for user bench, SMB 3 only.
start_smbd() {
	ports SMB_PORT || return 1
	port_free $SMB_PORT || return 1
	d=$T/samba
	mkdir -p "$d/private" "$d/lock" "$d/state" "$d/cache" "$d/pid" "$d/log" "${SMB_ROOT:=$T/smb}" "$T/smb-small"
	cat > "$d/smb.conf" <<CONF
[global]
	server role = standalone server
	interfaces = lo
	bind interfaces only = yes
	smb ports = $SMB_PORT
	server min protocol = SMB3
	disable netbios = yes
	private dir = $d/private
	lock directory = $d/lock
	state directory = $d/state
	cache directory = $d/cache
	pid directory = $d/pid
	ncalrpc dir = $d/ncalrpc
	log file = $d/log/smbd.log
	passdb backend = tdbsam:$d/private/passdb.tdb
	map to guest = never
[results]
	path = $SMB_ROOT
	read only = no
	valid users = bench
	force user = root
[small]
	path = $T/smb-small
	read only = no
	valid users = bench
	force user = root
CONF
	id bench >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin bench || return 1
	printf '%s\n%s\n' "$PASSWORD" "$PASSWORD" | smbpasswd -c "$d/smb.conf" -s -a bench >/dev/null || return 1
	# a session of its own: at exit smbd signals its whole process group
	setsid $GUARD smbd -F --no-process-group -s "$d/smb.conf" </dev/null >"$d/stderr" 2>&1 &
	SMBD_PID=$!
	SERVER_PIDS="$SERVER_PIDS $SMBD_PID"
	wait_port $SMB_PORT 20 || { echo "smbd did not start:"; cat "$d/stderr"; return 1; }
}
stop_smbd() { kill "$SMBD_PID" 2>/dev/null; wait "$SMBD_PID" 2>/dev/null; }

# private_network ARGS...: runs this test again in a network and mount
# namespace of its own (only its own loopback; a private /run), so its
# servers can take their standard ports (rpcbind's 111) beside whatever the
# host runs, and nothing outside the test can reach them or be reached by
# them. QEMU started inside uses that loopback for the guest's 10.0.2.2.
# Call it first, before anything is started.
private_network() {
	[ -n "${BB_PRIVATE_NET:-}" ] && return 0
	need_commands unshare ip
	[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
	rm -rf "$T"; trap - EXIT	# the namespaced run makes its own
	# In a chroot (a fresh Debian root) / is no mount point and its
	# propagation cannot be made private: there the chroot's /run is its own
	# already, and the network namespace alone does.
	if unshare --mount --propagation private true 2>/dev/null; then
		BB_PRIVATE_NET=1 exec unshare --net --mount --propagation private sh -c \
			'ip link set lo up && mount -t tmpfs -o mode=755 tmpfs /run && exec "$@"' sh sh "$0" "$@"
	fi
	BB_PRIVATE_NET=1 exec unshare --net sh -c 'ip link set lo up && exec "$@"' sh sh "$0" "$@"
}

# http_boot_network: a rack's network for UEFI HTTP boot, in this test's own
# network namespace (private_network first): the tap device bbtap0 a
# guest's NIC is (qemu.sh --tap), this machine 10.81.0.1 on it; nginx there
# (start_webdav: $T/www over HTTP, a WebDAV share over HTTPS); Debian's
# dnsmasq serving DHCP on it with the README's dhcp- lines as they are (PXE
# and HTTP boot; the range this network's), its web server 10.0.0.5 replaced
# by nginx's address, and arm64's TFTP server by 10.81.0.2, this machine's
# second address on the tap ($T/dnsmasq.conf): a reply's next server that is
# the line's, not dnsmasq's own. With TFTP_ROOT set, dnsmasq serves it there
# (arm64 PXE's root, out/arm64/pxe), as root: the user it would become cannot
# read this test's folder.
http_boot_network() {
	need_commands dnsmasq nginx openssl ip
	ip tuntap add dev bbtap0 mode tap && ip addr add 10.81.0.1/24 dev bbtap0 && ip addr add 10.81.0.2/24 dev bbtap0 &&
		ip link set bbtap0 up ||
		{ echo "no tap device in the test's network namespace"; return 1; }
	SERVER_ADDR=10.81.0.1
	start_webdav || return 1
	sed -n '/^# \/etc\/dnsmasq.d\/bootbench.conf$/,/^```$/p' README.md | grep '^dhcp-' | grep -v '^dhcp-range=' |
		sed "s|http://10\.0\.0\.5/|http://10.81.0.1:$HTTP_PORT/|; s/,10\.0\.0\.5\b/,10.81.0.2/g" > "$T/dnsmasq.conf"
	$GUARD dnsmasq --keep-in-foreground --conf-file="$T/dnsmasq.conf" --port=0 --interface=bbtap0 \
		${TFTP_ROOT:+--enable-tftp --tftp-root="$TFTP_ROOT" --user=root} \
		--bind-interfaces --dhcp-range=10.81.0.100,10.81.0.150,1h --dhcp-leasefile="$T/leases" \
		--pid-file="$T/dnsmasq.pid" --log-dhcp --log-facility="$T/dnsmasq.log" > "$T/dnsmasq.out" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	i=0; until [ -s "$T/dnsmasq.pid" ]; do
		i=$((i + 1)); [ $i -lt 50 ] || { echo "dnsmasq did not start:"; cat "$T/dnsmasq.out"; return 1; }; sleep 0.1
	done
	# its pid file comes before its TFTP root is checked (one it cannot read ends it): with
	# TFTP, its word that the root is taken, or that it failed
	i=0
	while [ -n "${TFTP_ROOT:-}" ] && ! grep -q 'TFTP root is' "$T/dnsmasq.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 100 ] || grep -q 'FAILED to start up' "$T/dnsmasq.log" 2>/dev/null; then
			echo "dnsmasq did not start:"; cat "$T/dnsmasq.out" "$T/dnsmasq.log"; return 1
		fi
		sleep 0.1
	done
}

# rack_save_lines: a rack config's lines (bootbench.conf) that save the results to
# http_boot_network's WebDAV share (rack1/, its CA fetched from nginx, the password a
# credential line) and power off
rack_save_lines() {
	cat <<CONF
save=https://bench@10.81.0.1:$DAV_PORT/rack1/
ca=http://10.81.0.1:$HTTP_PORT/ca.crt
save_timeout=60
after=poweroff
credential=https://bench@10.81.0.1:$DAV_PORT $PASSWORD
CONF
}

# rpcbind (NFSv3's MOUNT protocol is found through it), in a private network
# only: 111 is the protocol's own (a client asks there, the port cannot
# move), and in the test's own network namespace no one else's.
start_rpcbind() {
	[ -n "${BB_PRIVATE_NET:-}" ] || { echo "rpcbind runs only in private_network (port 111)"; return 1; }
	port_free 111 || return 1
	mkdir -p /run/rpcbind
	$GUARD rpcbind -f -w </dev/null >"$T/rpcbind.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port 111 10 || { echo "rpcbind did not start:"; cat "$T/rpcbind.log"; return 1; }
}

# nfs-ganesha serving $T/nfs as /results, NFSv4; in a private network with
# rpcbind running, NFSv3 too (MOUNT on a port of its own, registered there),
# with /results as the v3 mount path as well. The export is a tmpfs of its
# own: ganesha's VFS backend finds an export by its filesystem in the mount
# table, and in a chroot the root's is not there.
start_ganesha() {
	ports NFS_PORT MNT_PORT || return 1
	port_free $NFS_PORT || return 1
	d=$T/ganesha
	mkdir -p "$d" "${NFS_ROOT:=$T/nfs}"
	mountpoint -q "$NFS_ROOT" || mount -t tmpfs -o size=64m tmpfs "$NFS_ROOT" || return 1
	protocols=4 bind="Bind_Addr = 127.0.0.1;"
	if [ -n "${BB_PRIVATE_NET:-}" ]; then
		# only lo is there: glibc's AI_ADDRCONFIG finds no address for
		# 127.0.0.1 then, and every address is loopback anyway
		bind=""
		rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && protocols="3, 4"
	fi
	cat > "$d/ganesha.conf" <<CONF
NFS_CORE_PARAM {
	NFS_Port = $NFS_PORT;
	MNT_Port = $MNT_PORT;
	Protocols = $protocols;
	$bind
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Mount_Path_Pseudo = true;
}
NFSV4 { Graceless = true; }
EXPORT {
	Export_Id = 1;
	Path = $NFS_ROOT;
	Pseudo = /results;
	Access_Type = RW;
	Squash = No_Root_Squash;
	Protocols = $protocols;
	Transports = TCP;
	SecType = sys;
	FSAL { Name = VFS; }
}
CONF
	$GUARD ganesha.nfsd -F -f "$d/ganesha.conf" -L "$d/ganesha.log" -p "$d/ganesha.pid" </dev/null >"$d/stderr" 2>&1 &
	GANESHA_PID=$!
	SERVER_PIDS="$SERVER_PIDS $GANESHA_PID"
	wait_port $NFS_PORT 30 || { echo "ganesha did not start:"; tail -20 "$d/ganesha.log"; return 1; }
	[ "$protocols" = 4 ] && return 0
	# v3 is served once MOUNT is registered with rpcbind
	i=0
	until rpcinfo -p 127.0.0.1 2>/dev/null | grep -q " $MNT_PORT  mountd"; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "ganesha registered no MOUNT service:"; tail -20 "$d/ganesha.log"; return 1; }
		sleep 0.1
	done
}
stop_ganesha() { kill "$GANESHA_PID" 2>/dev/null; wait "$GANESHA_PID" 2>/dev/null; }

# The Prometheus Pushgateway, in memory.
start_pushgateway() {
	ports PUSH_PORT || return 1
	port_free $PUSH_PORT || return 1
	# Debian persists to /var/lib/prometheus by default: in memory only here
	$GUARD prometheus-pushgateway --web.listen-address=127.0.0.1:$PUSH_PORT --persistence.file= >"$T/pushgateway.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port $PUSH_PORT 10 || { echo "pushgateway did not start:"; cat "$T/pushgateway.log"; return 1; }
}

# Debian's Prometheus server on 127.0.0.1:$PROM_PORT scraping the Pushgateway
# every second (honor_labels: the pushed job, machine and disk stay) and
# evaluating bootbench's rules (or the file $RULES names) every second; its
# data under $T.
start_prometheus() {
	ports PROM_PORT || return 1
	port_free $PROM_PORT || return 1
	cat > "$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - ${RULES:-$PWD/tools/monitoring/bootbench-rules.yml}
scrape_configs:
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$PUSH_PORT']
EOF
	$GUARD prometheus --config.file="$T/prometheus.yml" --web.listen-address=127.0.0.1:$PROM_PORT \
		--storage.tsdb.path="$T/prometheus-data" >"$T/prometheus.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port $PROM_PORT 20 || { echo "prometheus did not start:"; tail -n 20 "$T/prometheus.log"; return 1; }
}
# Debian's Alertmanager on 127.0.0.1:$AM_PORT with the configuration file
# $AM_CONFIG, no cluster, its data under $T.
start_alertmanager() {
	ports AM_PORT || return 1
	port_free $AM_PORT || return 1
	$GUARD prometheus-alertmanager --config.file="$AM_CONFIG" --storage.path="$T/alertmanager" \
		--web.listen-address=127.0.0.1:$AM_PORT --cluster.listen-address= >"$T/alertmanager.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port $AM_PORT 20 || { echo "alertmanager did not start:"; tail -n 20 "$T/alertmanager.log"; return 1; }
}
# prom_query PROMQL: that Prometheus' answer (JSON) to an instant query
# Debian's rsyslog on 127.0.0.1:$SYSLOG_PORT, UDP and TCP both (TCP's
# octet-counted frames as RFC 6587 has them), writing each message to
# $T/syslog.txt as one line: "HOSTNAME APP-NAME SEQUENCE-ID TIMESTAMP MESSAGE",
# and as it came (without TCP's framing) to $T/syslog.raw.
start_rsyslog() {
	ports SYSLOG_PORT || return 1
	port_free $SYSLOG_PORT || return 1
	mkdir -p "$T/rsyslog"
	cat > "$T/rsyslog.conf" <<EOF
global(workDirectory="$T/rsyslog")
module(load="imudp")
module(load="imtcp")
input(type="imudp" address="127.0.0.1" port="$SYSLOG_PORT")
input(type="imtcp" address="127.0.0.1" port="$SYSLOG_PORT")
template(name="bootbench" type="string"
	 string="%hostname% %app-name% %structured-data:R,ERE,1,BLANK:sequenceId=.([0-9]+)--end% %timereported:::date-rfc3339% %msg%\n")
action(type="omfile" file="$T/syslog.txt" template="bootbench")
template(name="raw" type="string" string="%rawmsg%\n")
action(type="omfile" file="$T/syslog.raw" template="raw")
EOF
	$GUARD rsyslogd -n -f "$T/rsyslog.conf" -i "$T/rsyslog.pid" >"$T/rsyslog.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port $SYSLOG_PORT 10 || { echo "rsyslogd did not start:"; cat "$T/rsyslog.log"; return 1; }
}

# Debian's rsyslog with GnuTLS (rsyslog-gnutls) on 127.0.0.1:$SYSLOG_TLS_PORT:
# syslog over TLS (RFC 5425) with the certificate make_ca signs for
# 127.0.0.1, 10.0.2.2 and localhost, each message to $T/syslog-tls.txt as
# start_rsyslog writes them. A server of its own: rsyslog has one TLS
# driver setting per process.
start_rsyslog_tls() {
	ports SYSLOG_TLS_PORT || return 1
	port_free $SYSLOG_TLS_PORT || return 1
	[ -f "$T/ca/server.crt" ] || make_ca "$T/ca" || return 1
	mkdir -p "$T/rsyslog-tls"
	cat > "$T/rsyslog-tls.conf" <<EOF
global(workDirectory="$T/rsyslog-tls" DefaultNetstreamDriver="gtls" DefaultNetstreamDriverCAFile="$T/ca/ca.crt"
       DefaultNetstreamDriverCertFile="$T/ca/server.crt" DefaultNetstreamDriverKeyFile="$T/ca/server.key")
module(load="imtcp" StreamDriver.Name="gtls" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")
input(type="imtcp" address="127.0.0.1" port="$SYSLOG_TLS_PORT")
template(name="bootbench" type="string"
	 string="%hostname% %app-name% %structured-data:R,ERE,1,BLANK:sequenceId=.([0-9]+)--end% %timereported:::date-rfc3339% %msg%\n")
action(type="omfile" file="$T/syslog-tls.txt" template="bootbench")
EOF
	$GUARD rsyslogd -n -f "$T/rsyslog-tls.conf" -i "$T/rsyslog-tls.pid" >"$T/rsyslog-tls.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	wait_port $SYSLOG_TLS_PORT 10 || { echo "rsyslogd (TLS) did not start:"; cat "$T/rsyslog-tls.log"; return 1; }
}

prom_query() { curl -s --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1"; }

# check_manifest FOLDER: every file the manifest lists is there with its hash,
# and nothing else is.
check_manifest() {
	[ -f "$1/MANIFEST.sha256" ] || return 1
	(cd "$1" && sha256sum --quiet -c MANIFEST.sha256) || return 1
	[ "$(cd "$1" && ls | grep -vx MANIFEST.sha256 | sort)" = "$(awk '{ print $2 }' "$1/MANIFEST.sha256" | sort)" ]
}
