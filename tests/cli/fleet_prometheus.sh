# SPDX-License-Identifier: MIT
# bootbench fleet --prometheus at a rack's scale (issue 46, item 11): an
# answer of Prometheus' API far over 16 MiB (300,000 series, 10,000
# machines of 24 disks and more, as a query not aggregated per machine
# would answer) is parsed as curl streams it, the machine's state right;
# an answer that is not the API's, and Prometheus' own error, are each
# one line, never a chunk of the answer. A stand-in for Prometheus
# (python3's http.server on loopback) gives the answers; the real
# Prometheus is in monitoring.sh.
. tests/lib.sh
need_commands curl python3
free_port PORT
now=$(date +%s)
python3 - "$T/big.json" "$now" <<'PY'
import json, sys
now = sys.argv[2]
with open(sys.argv[1], "w") as f:
    f.write('{"status":"success","data":{"resultType":"vector","result":[')
    f.write(",".join('{"metric":{"job":"bootbench","machine":"m1","disk":"d%d"},"value":[%s,"%s"]}' % (i, now, now)
                     for i in range(300000)))
    f.write("]}}")
PY
check "the stand-in's answer is over 16 MiB" [ "$(stat -c %s "$T/big.json")" -gt $((16 << 20)) ]
cat > "$T/server.py" <<'PY'
import http.server, sys, urllib.parse
big, mode = sys.argv[2], sys.argv[3]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).get("query", [""])[0]
        if mode == "error":
            code, body = 400, b'{"status":"error","errorType":"bad_data","error":"1:1: parse error:\\nunexpected thing"}'
        elif mode == "html":
            code, body = 502, b"<html>\n<body>Bad Gateway</body>\n</html>\n"
        elif q.startswith("max by (machine) (push_time_seconds") or q == "bootbench_last_push_timestamp_seconds":
            code, body = 200, open(big, "rb").read()
        elif q.startswith('count by (machine) ((bootbench_state{state="pass"}'):
            code, body = 200, b'{"status":"success","data":{"resultType":"vector","result":[{"metric":{"machine":"m1"},"value":[1,"24"]}]}}'
        else:
            code, body = 200, b'{"status":"success","data":{"resultType":"vector","result":[]}}'
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
serve() { # mode
	[ -z "${SPID:-}" ] || { kill "$SPID"; wait "$SPID" 2>/dev/null; }
	python3 "$T/server.py" $PORT "$T/big.json" "$1" & SPID=$!
	SERVER_PIDS="$SERVER_PIDS $SPID"
	i=0; until curl -s -o /dev/null "http://127.0.0.1:$PORT/" || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
}
printf 'serial\nm1\n' > "$T/rack.csv"
serve big
"$BB" fleet --expect="$T/rack.csv" --prometheus=http://127.0.0.1:$PORT > "$T/out" 2> "$T/err"
rc=$?
sed 's/^/    /' "$T/out"; head -c 300 "$T/err"
check "an answer of 300,000 series (over 16 MiB): read whole, m1 passed (pushed passes, nothing running or failed)" sh -c \
	"grep -Eq '^2 +- +m1 +passed ' '$T/out' && [ ! -s '$T/err' ]"
serve error
"$BB" fleet --expect="$T/rack.csv" --prometheus=http://127.0.0.1:$PORT > "$T/out" 2> "$T/err"
cat "$T/err"
check "Prometheus' own error: one line, its words" sh -c \
	"[ \$(wc -l < '$T/err') = 1 ] && grep -q 'Prometheus at http://127.0.0.1:$PORT: it refused .*1:1: parse error' '$T/err'"
serve html
"$BB" fleet --expect="$T/rack.csv" --prometheus=http://127.0.0.1:$PORT > "$T/out" 2> "$T/err"
cat "$T/err"
check "an answer that is not the API's (a proxy's page): one line saying so" sh -c \
	"[ \$(wc -l < '$T/err') = 1 ] && grep -q 'not an answer of its HTTP API' '$T/err'"
printf 'position,serial,mac\nU1,abc 123/4,\nU2,,3C-EC-EF-00-12-34\nU3,,\n' > "$T/list.csv"
"$BB" fleet --expect="$T/list.csv" --export > "$T/export" 2> "$T/err"
rc=$?
cat "$T/export"
check "--export: the listed machines as bootbench_expected_machine_info, named as they push (ABC_123_4, mac-...); the empty U3 left out" sh -c \
	"[ $rc = 0 ] && [ \$(grep -c '^bootbench_expected_machine_info{' '$T/export') = 2 ] &&
	 grep -q '^bootbench_expected_machine_info{machine=\"ABC_123_4\",serial=\"abc 123/4\",mac=\"\",position=\"U1\"} 1\$' '$T/export' &&
	 grep -q '^bootbench_expected_machine_info{machine=\"mac-3cecef001234\",.*position=\"U2\"} 1\$' '$T/export'"
"$BB" fleet --expect="$T/list.csv" --export "$T" > "$T/export" 2> "$T/err"
check "--export with a folder: bad input (exit 2), one line, nothing printed" sh -c \
	"[ $? = 2 ] && [ \$(wc -l < '$T/err') = 1 ] && [ ! -s '$T/export' ]"
finish
