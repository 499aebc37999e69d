#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ports.py - a free port for a test's server, chosen when the test starts it.

usage: ports.py take OWNER     prints a free port, now OWNER's (a test shell's pid)
       ports.py release OWNER  forgets OWNER's ports (tests/lib.sh's cleanup)

Why not bind port 0 and pass the kernel's answer on: the kernel takes that
from ip_local_port_range, the range every outgoing connection's source port
comes from too, so between this probe closing the port and the server
binding it, any connect() on the machine (curl, a guest's user-mode
network, another test) may take it. Three things together leave no such
race among the tests:
  - the ports lie below ip_local_port_range (20000 up to it), where the
    kernel never picks one by itself;
  - a port is taken only if a bind to 0.0.0.0 (TCP and UDP, no
    SO_REUSEADDR) succeeds: nothing holds it on any address, nor has a
    connection of it in TIME_WAIT;
  - each port handed out is recorded (/tmp/bbtest-ports/PORT holds its
    owner's pid) under one lock that every test takes, so two tests never
    get the same port, and one killed before its cleanup (SIGKILL) loses
    its ports at the next take, its pid being gone.
What is left is a program outside the suite binding that very port by
number within the moment between the check and the server's bind.
"""
import fcntl
import os
import random
import socket
import sys

DIR = "/tmp/bbtest-ports"
LOW = 20000


def free(port):
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        s = socket.socket(socket.AF_INET, kind)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
        finally:
            s.close()
    return True


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def owner(path):
    try:
        with open(path) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("take", "release") or not sys.argv[2].isdigit():
        sys.stderr.write("usage: ports.py take|release OWNER-PID\n")
        return 2
    me = int(sys.argv[2])
    os.makedirs(DIR, mode=0o1777, exist_ok=True)
    with open(os.path.join(DIR, ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        taken = {}
        for name in os.listdir(DIR):
            if name.isdigit():
                pid = owner(os.path.join(DIR, name))
                if (sys.argv[1] == "release" and pid == me) or not alive(pid):
                    os.unlink(os.path.join(DIR, name))
                else:
                    taken[int(name)] = pid
        if sys.argv[1] == "release":
            return 0
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            high = int(f.read().split()[0])	# the ephemeral range's first port: not reached
        if high - LOW < 1000:
            sys.stderr.write("ports.py: ip_local_port_range starts at %d: no room below it\n" % high)
            return 1
        start = random.randrange(LOW, high)	# spread out: a neighbour's stale TIME_WAITs are elsewhere
        for i in range(high - LOW):
            port = LOW + (start - LOW + i) % (high - LOW)
            if port not in taken and free(port):
                with open(os.path.join(DIR, str(port)), "w") as f:
                    f.write("%d\n" % me)
                print(port)
                return 0
    sys.stderr.write("ports.py: no free port from %d to %d\n" % (LOW, high - 1))
    return 1


if __name__ == "__main__":
    sys.exit(main())
