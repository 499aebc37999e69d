# SPDX-License-Identifier: MIT
# Issue 14 A.8: console_flush (lib/bootbench/boot.sh), run before every
# power-off, returns only when the log's tee has written everything out to
# the consoles. The console here is a pipe drained at about 8 KiB/s (a
# 115200-baud line sends 11 KiB/s) with a tty's 4 KiB of buffer; some 70 KiB
# of log are still in the log pipe and tee when the flush starts, so the wait
# takes about 9 s. What is left in the 4 KiB buffer then is the UART's to
# send (console_flush's stty waits for that). Before the fix the flush gave
# up after 5 s (TEE_WAIT_S=5 fails here) and the power-off cut the rest.
. tests/lib.sh
need_commands unshare mkfifo
[ "$(id -u)" = 0 ] || skip "needs root (a mount namespace binds /dev/console)"
mkfifo "$T/log.fifo" "$T/uart"
: > "$T/flush-console"
# The slow UART: 1 KiB, then a pause. Its pipe holds 4 KiB, as a tty's
# output buffer does (what is left there at tee's exit is the UART's to
# drain: console_flush's stty).
python3 - "$T/uart" > "$T/received" <<'PY' &
import fcntl, os, sys, time
# opened read-write first, so the buffer is made 4 KiB before tee starts
# (the test waits for uart.ready); then read through a read-only end
rw = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(rw, 1031, 4096)  # F_SETPIPE_SZ
fd = os.open(sys.argv[1], os.O_RDONLY)
open(sys.argv[1] + ".ready", "w").close()  # tee starts only now
while True:
    b = os.read(fd, 1024)
    if rw is not None:
        os.close(rw)  # tee has written, so it holds the pipe: its close is the end
        rw = None
    if not b:
        break
    os.write(1, b)
    time.sleep(0.12)
PY
reader=$!
i=0; while [ ! -e "$T/uart.ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
# --propagation unchanged: in a chroot / is no mount point to make private;
# /dev is made private instead, so the bind stays in this namespace
unshare -m --propagation unchanged sh -c '
	mount --make-rprivate /dev || exit 3
	mount --bind "$1/flush-console" /dev/console || exit 3
	. rootfs/lib/bootbench/boot.sh
	tee "$1/log" "$1/uart" < "$1/log.fifo" > /dev/null &
	BB_TEE_PID=$!
	exec > "$1/log.fifo"
	head -c 131072 /dev/urandom | od -An -tx1 | head -c 131072
	console_flush
	echo "flushed after the console had $(wc -c < "$1/received") bytes"
' sh "$T" > "$T/out" 2>&1
check "the flush ran (exit 0)" [ $? = 0 ]
cat "$T/out" "$T/flush-console"
got=$(sed -n 's/^flushed after the console had \([0-9]*\) bytes$/\1/p' "$T/flush-console")
check "the log reached the console before the flush returned, but for the UART's 4 KiB" \
	[ "${got:-0}" -ge $((131072 - 4096)) ]
kill "$reader" 2>/dev/null
finish
