#!/bin/sh
# SPDX-License-Identifier: MIT
# make-readme.sh - replaces README.md's generated tables: the options (from
# the option table) and the boot parameters (from the image's whitelist).
set -e
cd "$(dirname "$0")/.."
tmp=README.md.tmp.$$
{
	sed -n '1,/<!-- options:begin -->/p' README.md
	scripts/options-doc.sh
	sed -n '/<!-- options:end -->/,$p' README.md
} > "$tmp"
mv "$tmp" README.md
{
	sed -n '1,/<!-- params:begin -->/p' README.md
	scripts/params-doc.sh
	sed -n '/<!-- params:end -->/,$p' README.md
} > "$tmp"
mv "$tmp" README.md
