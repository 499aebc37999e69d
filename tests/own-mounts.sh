#!/bin/sh
# SPDX-License-Identifier: MIT
# own-mounts.sh COMMAND [ARG...]: COMMAND in a mount namespace of its own
# (tests/run.sh starts each test so, under unshare -m --propagation
# private): a namespace another program makes beside it (a sandbox, a
# neighbour test) copies the mounts there are at that moment, and such a
# copy kept a test's filesystem, and so its loop device, in use after the
# test's umount. Inside, the mounts are shared again, as on a systemd
# host: a namespace the test's own programs make without going private
# still passes its mounts back, and the test sees that leak.
mount --make-rshared / || exit 1
exec "$@"
