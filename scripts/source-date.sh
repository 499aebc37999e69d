#!/bin/sh
# SPDX-License-Identifier: MIT
# source-date.sh - prints SOURCE_DATE_EPOCH, the one time every file of the
# image carries (reproducible builds), the first of:
#   1. SOURCE_DATE_EPOCH from the environment (reproducible-builds.org's rule);
#   2. image/source-date, the commit's time that `git archive` writes into a
#      release tarball (export-subst in .gitattributes: "$Format:%ct$");
#   3. the last commit's time, in a git checkout;
#   4. the newest file of the tree (a copy without either: two builds of it
#      still agree), said on stderr.
# Never 0: FAT cannot date a file before 1980, and two trees would differ.
cd "$(dirname "$0")/.." || exit 1
case "${SOURCE_DATE_EPOCH:-}" in
'') ;;
*[!0-9]*) echo "source-date: SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH is not whole seconds" >&2; exit 2 ;;
*) echo "$SOURCE_DATE_EPOCH"; exit 0 ;;
esac
t=$(sed -n 's/^\([0-9][0-9]*\)$/\1/p' image/source-date 2>/dev/null)
[ -n "$t" ] || t=$(git log -1 --format=%ct 2>/dev/null)
if [ -z "$t" ]; then
	t=$(find . \( -path ./out -o -path ./dl -o -path ./.git \) -prune -o -type f -printf '%T@\n' | sort -n | tail -n 1 | cut -d. -f1)
	echo "source-date: no commit time in this tree (not a git checkout, nor a git archive): the newest file's, $t" >&2
fi
echo "$t"
