# SPDX-License-Identifier: MIT
# bench-loop.sh - sourced by the benchmarks: bench_loop NAME SIZE gives a
# loop device with direct I/O over a file in a tmpfs folder of its own
# ($dev, $dir), both removed when the script exits.
dev= dir=
bench_loop_cleanup() {
	[ -z "$dev" ] || losetup -d "$dev"
	[ -z "$dir" ] || rm -rf "$dir"
}
bench_loop() { # name size
	trap bench_loop_cleanup EXIT
	dir=$(mktemp -d "/dev/shm/$1.XXXXXX")
	truncate -s "$2" "$dir/backing"
	dev=$(losetup -f --show --direct-io=on "$dir/backing")
}
