#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh - what `make run` does until the bootable image exists: a short
# mixed job on a scratch file, with the readable summary on the terminal.
set -e
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "bootbench demo: 4k random read/write (70/30), queue depth 16, 5 s, on a file in $dir"
out/bootbench run --name=demo --filename="$dir/demo.dat" --size=256m --rw=randrw --rwmixread=70 \
	--bs=4k --iodepth=16 --runtime=5 --time_based
