#!/bin/sh
# SPDX-License-Identifier: MIT
# make-readme.sh - replaces README.md's option table with the one the option table makes.
set -e
cd "$(dirname "$0")/.."
tmp=README.md.tmp.$$
{
	sed -n '1,/<!-- options:begin -->/p' README.md
	scripts/options-doc.sh
	sed -n '/<!-- options:end -->/,$p' README.md
} > "$tmp"
mv "$tmp" README.md
