#!/bin/sh
# SPDX-License-Identifier: MIT
# params-doc.sh - the boot parameter table of docs/operator.md, from the image's
# whitelist (rootfs/etc/bootbench/params), so the two never disagree.
cd "$(dirname "$0")/.."
echo '| parameter | values | default | meaning |'
echo '|---|---|---|---|'
grep -v '^[[:space:]]*#' rootfs/etc/bootbench/params | awk 'NF {
	m = $0; sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, "", m)
	v = "`" $2 "`"; gsub(/\|/, "` \\| `", v)
	printf "| `bootbench.%s` | %s | %s | %s |\n", $1, v, $3, m }'
