#!/bin/sh
# SPDX-License-Identifier: MIT
# Stage 1 of the image chain: fetch everything third-party from Debian
# bookworm through a private apt configuration under dl/apt. The host's apt
# sources, preferences and package state are not read or changed, and no root
# is needed. apt checks every index against Debian's keyring and every file
# against the index's SHA256, so what lands in dl/ is what the archive signed.
#
#   scripts/fetch.sh            binary packages of image/packages.list (with
#                               the kernel's and the tools' library closure)
#                               and the sources of busybox, fio, libaio
#   scripts/fetch.sh --print-pins   the pins of dl/manifest.tsv (make pins):
#                               ROLE PACKAGE VERSION SHA256 a line
# Output: dl/debs/*.deb, dl/src/{busybox,fio,libaio,jansson,curl,wolfssl}-*/,
# dl/manifest.tsv (role, package, version, sha256: the pins, copied into the
# image as /etc/bootbench-release). A download that fails names the package
# and leaves no partial file.
# BOOTBENCH_PINS=FILE (what --print-pins printed): every package and source
# at exactly the version FILE names, with its checksum; a build refuses to
# proceed, naming the package, when the archive no longer serves it or FILE
# has no pin for a package the image needs.
# ARCH=arm64 (make's ARCH, issue 47): the sources its programs are built
# from, with musl and liburing (built for it here: on x86_64 Debian's
# musl-tools and liburing-dev stand for them), and the arm64 binary
# packages of image/arm64/packages.list, pinned in dl/arm64/manifest.tsv;
# apt's indexes for arm64 are its own (dl/arm64/apt: one apt configuration
# knows one architecture here, so neither index is refetched for the other),
# the packages in dl/arm64/debs (beside x86_64's, a glob for one package's
# file would find both).
set -eu
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
DL=${DL:-$ROOT/dl}
SUITE=bookworm
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SOURCES="busybox fio libaio jansson curl wolfssl"
case ${ARCH:-x86_64} in
x86_64)
	PACKAGES=${PACKAGES:-$ROOT/image/packages.list}
	DEB_ARCH=amd64
	APTDIR=$DL/apt
	DEBS=$DL/debs
	MANIFEST=$DL/manifest.tsv ;;
arm64)
	PACKAGES=${PACKAGES:-$ROOT/image/arm64/packages.list}
	DEB_ARCH=arm64
	APTDIR=$DL/arm64/apt
	DEBS=$DL/arm64/debs
	SOURCES="$SOURCES musl liburing"
	MANIFEST=$DL/arm64/manifest.tsv ;;
*)
	echo "fetch: ARCH=$ARCH: no such ARCH (x86_64, arm64)" >&2; exit 2 ;;
esac

PINS=${BOOTBENCH_PINS:-}
# a relative name as ./NAME: awk takes an argument NAME=VALUE for an assignment, not a file
case $PINS in ''|/*) ;; *) PINS=./$PINS ;; esac
say() { echo "fetch: $*" >&2; }
die() { echo "fetch: $*" >&2; rm -f "$MANIFEST.tmp"; exit 2; }

if [ "${1:-}" = --print-pins ]; then
	[ -f "$MANIFEST" ] || die "${MANIFEST#$ROOT/} is missing: run scripts/fetch.sh"
	echo "# bootbench package pins (BOOTBENCH_PINS=FILE): role package version sha256"
	awk -F'\t' '{ print $1, $2, $3, $4 }' "$MANIFEST"
	exit 0
fi
if [ -n "$PINS" ]; then
	[ -r "$PINS" ] || die "BOOTBENCH_PINS=$PINS: no such file"
	awk '!/^#/ && NF && (NF != 4 || $3 == "") { bad = 1 } END { exit bad }' "$PINS" ||
		die "BOOTBENCH_PINS=$PINS: not a pins file (ROLE PACKAGE VERSION SHA256 a line, as make pins prints)"
fi
# pin_of PACKAGE [ROLE]: its pinned version, or nothing
pin_of() { awk -v p="$1" -v r="${2:-}" '!/^#/ && $2 == p && (r == "" || $1 == r) { print $3; exit }' "$PINS"; }

for t in apt-get apt-cache dpkg-deb dpkg-source; do
	command -v $t >/dev/null 2>&1 || die "$t is missing: apt-get install dpkg-dev apt (or run 'make deps' as root)"
done
[ -r $KEYRING ] || die "$KEYRING is missing: apt-get install debian-archive-keyring"

# The archive's address is the one this host already uses for Debian: read it
# from the host's sources rather than writing a mirror into the project.
host_uri() { # $1 = suite to look for
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$1" 'BEGIN{RS="";FS="\n"}
			{ u=""; ok=0
			  for (i=1;i<=NF;i++) {
				if ($i ~ /^URIs:/) { split($i,a," "); u=a[2] }
				if ($i ~ /^Suites:/) { n=split($i,b," "); for (j=2;j<=n;j++) if (b[j]==s) ok=1 }
			  }
			  if (ok && u!="") { print u; exit } }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk -v s="$1" '$1=="deb" { for (i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i+1)==s) print $i; break } }' "$f"
	done
}
MAIN_URI=${DEBIAN_MIRROR:-$(host_uri $SUITE | head -n1)}
SEC_URI=${DEBIAN_SECURITY_MIRROR:-$(host_uri $SUITE-security | head -n1)}
[ -n "$MAIN_URI" ] || die "no Debian $SUITE source in /etc/apt: set DEBIAN_MIRROR to the archive's URI"

mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/parts" \
	"$APTDIR/prefs.d" "$DEBS" "$DL/src" "${MANIFEST%/*}"
: > "$APTDIR/status"
{
	for type in deb deb-src; do
		echo "$type [signed-by=$KEYRING] $MAIN_URI $SUITE main contrib non-free-firmware"
		echo "$type [signed-by=$KEYRING] $MAIN_URI $SUITE-updates main contrib non-free-firmware"
		[ -z "$SEC_URI" ] || echo "$type [signed-by=$KEYRING] $SEC_URI $SUITE-security main contrib non-free-firmware"
	done
} > "$APTDIR/sources.list"

# apt with every path that matters pointed into dl/apt.
dlapt() {
	cmd=$1; shift
	sandbox=""
	[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
	$cmd -q -o Dir::Etc::SourceList="$APTDIR/sources.list" \
		-o Dir::Etc::SourceParts="$APTDIR/parts" \
		-o Dir::Etc::Preferences="$APTDIR/preferences" \
		-o Dir::Etc::PreferencesParts="$APTDIR/prefs.d" \
		-o Dir::State::Lists="$APTDIR/lists" \
		-o Dir::State::status="$APTDIR/status" \
		-o Dir::Cache="$APTDIR/cache" \
		-o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin \
		-o Debug::NoLocking=1 \
		-o APT::Architecture=$DEB_ARCH -o APT::Architectures::=$DEB_ARCH \
		-o APT::Get::AllowUnauthenticated=false \
		$sandbox "$@"
}

# Indexes: refreshed when older than a day (the suite is a stable release).
if [ -z "$(find "$APTDIR/lists" -maxdepth 1 -name '*_InRelease' -mtime -1 2>/dev/null)" ]; then
	say "updating the package index ($SUITE)"
	dlapt apt-get update >"$APTDIR/update.log" 2>&1 || { cat "$APTDIR/update.log" >&2; die "apt-get update failed (see above)"; }
fi

# What an image needs from a package's Depends/Pre-Depends closure: for the
# kernel, the kernel image proper; for a tool, its shared libraries (lib*, zlib*);
# for ZFS's sources, the kernel's headers and kbuild.
# depends_of PACKAGES...: "PACKAGE DEPENDENCY" a line, from one apt-cache call
depends_of() {
	dlapt apt-cache depends --important --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
	awk '/^[^ ]/ { p = $1; sub(/:.*/, "", p); next } /^ *\|?(Pre)?Depends:/ && $NF !~ /^</ { print p, $NF }'
}
# closure: "PACKAGE ROLE" lines (the list's) on stdin; what the kernel, tool, zfs and
# zfs-src ones' closures add, "ROLE PACKAGE" a line, in that order of the roles. Walked
# breadth first through those packages only, all roles at once: one apt-cache call a
# level (one a level and a role took 2.5 of fetch.sh's 4.5 s).
closure() {
	cdir=$(mktemp -d)
	awk '$2 == "kernel" || $2 == "tool" || $2 == "zfs" || $2 == "zfs-src" { print $2, $1 }' > "$cdir/front"
	cp "$cdir/front" "$cdir/seen"
	: > "$cdir/added"
	while [ -s "$cdir/front" ]; do
		depends_of $(awk '{ print $2 }' "$cdir/front" | sort -u) > "$cdir/deps"
		seen=$cdir/seen front=$cdir/front awk '
			function wanted(r, p) {
				return (r == "kernel" && p ~ /^linux-image-[0-9]/) ||
				       ((r == "tool" || r == "zfs") && p ~ /^(lib|zlib)/) ||
				       (r == "zfs-src" && p ~ /^linux-(headers|kbuild)-/)
			}
			FILENAME == ENVIRON["seen"] { had[$1 " " $2] = 1; next }
			FILENAME == ENVIRON["front"] { roles[$2] = roles[$2] " " $1; next }
			{ n = split(roles[$1], r, " ")
			  for (i = 1; i <= n; i++)
				if (wanted(r[i], $2) && !((r[i] " " $2) in had)) { had[r[i] " " $2] = 1; print r[i], $2 } }
		' "$cdir/seen" "$cdir/front" "$cdir/deps" > "$cdir/next"
		cat "$cdir/next" >> "$cdir/seen"
		cat "$cdir/next" >> "$cdir/added"
		mv "$cdir/next" "$cdir/front"
	done
	for role in kernel tool zfs zfs-src; do
		awk -v r=$role '$1 == r' "$cdir/added"
	done
	rm -rf "$cdir"
}

manifest_tmp="$MANIFEST.tmp"
: > "$manifest_tmp"
if [ -n "$PACKAGES" ]; then
	wanted=$(mktemp)
	trap 'rm -f "$wanted" "$wanted.idx" "$wanted.res" "$wanted.fault" "$wanted.have" "$wanted.get"' EXIT
	listed=$(grep -v '^[[:space:]]*#' "$PACKAGES" | awk 'NF { print $1, ($2 == "" ? "lib" : $2) }')
	echo "$listed" | awk '{ print $2, $1 }' > "$wanted"
	# A library a tool of the base image needs too is labelled lib (sort -u keeps
	# the first line of a package), so the ZFS part only adds what the base lacks.
	echo "$listed" | closure | awk '{ print ($1 == "tool" ? "lib" : $1 == "zfs" ? "zfs-lib" : $1), $2 }' >> "$wanted"
	sort -u -k2,2 -o "$wanted" "$wanted"

	# Versions and checksums from the index, in one call: the newest, or with
	# BOOTBENCH_PINS the pinned ones (apt-cache show skips a version the index
	# lacks, and the pass below names it). A package's pin is the first line
	# naming it (as pin_of reads it); its file's checksum any of its lines' but
	# a source's (one pins file may hold both machines' pins: make pins and
	# make pins ARCH=arm64 in one, as a pinned arm64 build needs, where a
	# package of both, linux-kbuild, has a line and a checksum for each).
	# One awk for every package, not three a package (166 packages: 3 of
	# fetch.sh's 6 CPU-s, issue 49).
	if [ -n "$PINS" ]; then
		# (FILENAME, not FNR == NR: an empty first file has no lines of its own)
		pkgs=$(pins=$PINS awk 'FILENAME == ENVIRON["pins"] { if (!/^#/ && NF && !($2 in pin)) pin[$2] = $3; next }
			!($2 in pin) { print "NOPIN", $2; exit } { print $2 "=" pin[$2] }' "$PINS" "$wanted")
		case "$pkgs" in *NOPIN\ *)
			die "package '${pkgs##*NOPIN }' has no pin in $PINS (the image needs it; make pins prints the current ones)" ;;
		esac
	else
		pkgs=$(awk '{ print $2 }' "$wanted")
	fi
	dlapt apt-cache show --no-all-versions $pkgs 2>/dev/null |
		awk '/^Package:/ {p=$2} /^Version:/ {v=$2} /^Filename:/ {f=$2} /^SHA256:/ {h=$2}
		     /^$/ && p != "" { n=split(f,a,"/"); print p, v, h, a[n]; p="" }
		     END { if (p != "") { n=split(f,a,"/"); print p, v, h, a[n] } }' > "$wanted.idx"
	# each wanted package's line of the manifest (ROLE PACKAGE VERSION SHA256 FILE), and in
	# $wanted.fault the first one's fault: "gone PACKAGE VERSION", "sum PACKAGE VERSION" or
	# "absent PACKAGE"
	: > "$wanted.fault"
	# (the files' names from the environment: awk -v would take a backslash in one for an escape)
	pins=${PINS:-} idx=$wanted.idx fault=$wanted.fault awk '
		BEGIN { pins = ENVIRON["pins"]; idx = ENVIRON["idx"]; fault = ENVIRON["fault"] }
		pins != "" && FILENAME == pins { if (!/^#/ && NF) { if (!($2 in pin)) pin[$2] = $3; if ($1 != "src") sum[$2 " " $4] = 1 }; next }
		FILENAME == idx { if (!(($1 " " $2) in at)) at[$1 " " $2] = $3 " " $4; if (!($1 in newest)) newest[$1] = $2 " " $3 " " $4; next }
		pins != "" { k = $2 " " pin[$2]
			if (!(k in at)) { print "gone", $2, pin[$2] > fault; exit }
			split(at[k], f, " ")
			if (!(($2 " " f[1]) in sum)) { print "sum", $2, pin[$2] > fault; exit }
			print $1, $2, pin[$2], f[1], f[2]; next }
		{ if (!($2 in newest)) { print "absent", $2 > fault; exit } print $1, $2, newest[$2] }
	' ${PINS:+"$PINS"} "$wanted.idx" "$wanted" > "$wanted.res"
	fault="" fault_pkg="" fault_ver=""
	[ ! -s "$wanted.fault" ] || read -r fault fault_pkg fault_ver < "$wanted.fault"
	case "$fault" in
	gone) die "package '$fault_pkg' $fault_ver (pinned in $PINS) is no longer in the archive (Debian $SUITE)" ;;
	sum) die "package '$fault_pkg' $fault_ver: the archive's checksum is not the one pinned in $PINS" ;;
	absent) die "package '$fault_pkg' (${PACKAGES#$ROOT/}) is not in Debian $SUITE" ;;
	esac
	awk -v OFS='\t' '{ print $1, $2, $3, $4, $5 }' "$wanted.res" >> "$manifest_tmp"
	# the debs already here whose checksum is the index's are kept (one sha256sum for all,
	# named in $DEBS, as a deb's file name has no blank; one it cannot read is fetched again)
	(cd "$DEBS" && awk '{ print $5 }' "$wanted.res" | while read -r f; do [ -f "$f" ] && echo "$f"; done |
		xargs -r sha256sum -- 2>/dev/null) > "$wanted.have" || :
	have=$wanted.have awk 'FILENAME == ENVIRON["have"] { ok[$1 " " $2] = 1; next }
		!(($4 " " $5) in ok) { print $2, $3, $4, $5 }' "$wanted.have" "$wanted.res" > "$wanted.get"
	# What is missing, in one apt-get call: one connection for all of them, not
	# one apt start-up a package (35 packages: 32 s on a fresh machine).
	if [ -s "$wanted.get" ]; then
		say "downloading $(wc -l < "$wanted.get") packages: $(awk '{ printf "%s%s", s, $1; s=", " }' "$wanted.get")"
		tmpd=$(mktemp -d "$DEBS/.part.XXXXXX")
		if ! (cd "$tmpd" && dlapt apt-get download $(awk '{ print $1 "=" $2 }' "$wanted.get") >/dev/null 2>"$tmpd/.log"); then
			cat "$tmpd/.log" >&2; rm -rf "$tmpd"
			die "download of the packages failed (above: the one apt names)"
		fi
		while read -r pkg ver sha file; do
			got="$tmpd/$file"
			[ -f "$got" ] || got=$(ls "$tmpd/${pkg}_"*.deb 2>/dev/null | head -n1)
			if [ -z "$got" ] || [ "$(sha256sum "$got" | cut -d' ' -f1)" != "$sha" ]; then
				rm -rf "$tmpd"; die "package '$pkg' ($ver): checksum does not match the archive's index"
			fi
			mv "$got" "$DEBS/$file"
		done < "$wanted.get"
		rm -rf "$tmpd"
	fi
	rm -f "$wanted.idx" "$wanted.res" "$wanted.fault" "$wanted.have" "$wanted.get"
fi

# Source packages, built with musl: busybox (scripts/build-busybox.sh);
# fio and the libaio it links (scripts/build-fio.sh: Debian's fio binary
# needs 84 MB of shared libraries, ceph's and ICU's among them); jansson,
# the JSON reader bootbench links (scripts/build-jansson.sh); curl and the
# TLS library it is built with, wolfssl (scripts/build-curl.sh: Debian's
# curl needs 16 MB of shared libraries, for LDAP, Kerberos, RTMP and SSH);
# for arm64, musl and liburing (scripts/build-musl.sh, build-liburing.sh).
fetch_source() { # package
	if [ -n "$PINS" ]; then
		ver=$(pin_of "$1" src)
		[ -n "$ver" ] || die "source package '$1' has no pin in $PINS"
		dlapt apt-cache showsrc "$1" 2>/dev/null | grep -qx "Version: $ver" ||
			die "source package '$1' $ver (pinned in $PINS) is no longer in the archive (Debian $SUITE)"
	else
		ver=$(dlapt apt-cache showsrc "$1" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
	fi
	[ -n "$ver" ] || die "source package '$1' is not in Debian $SUITE"
	upver=${ver#*:}; upver=${upver%-*}
	if [ ! -f "$DL/src/$1-$ver.stamp" ]; then
		say "downloading source $1 $ver"
		tmpd=$(mktemp -d "$DL/src/.part.XXXXXX")
		if ! (cd "$tmpd" && dlapt apt-get source --download-only "$1=$ver" >/dev/null 2>"$tmpd/.log"); then
			cat "$tmpd/.log" >&2; rm -rf "$tmpd"
			die "download of source package '$1' ($ver) failed"
		fi
		rm -rf "$DL/src/$1-$upver"
		# apt-get source has checked the files against the signed Sources index.
		(cd "$tmpd" && dpkg-source --no-check -x ./*.dsc "$DL/src/$1-$upver" >/dev/null 2>"$tmpd/.log") ||
			{ cat "$tmpd/.log" >&2; rm -rf "$tmpd"; die "unpacking source package '$1' failed"; }
		rm -rf "$tmpd"
		touch "$DL/src/$1-$ver.stamp"
	fi
	printf 'src\t%s\t%s\t-\t-\n' "$1" "$ver" >> "$manifest_tmp"
	ln -sfn "$1-$upver" "$DL/src/$1"
}
mkdir -p "$DL/src"
for src in $SOURCES; do
	fetch_source $src
done
# the manifest only when everything is there: make takes it for done (and
# left as it was when nothing changed, so nothing is rebuilt for it)
if cmp -s "$manifest_tmp" "$MANIFEST"; then rm -f "$manifest_tmp"; else mv "$manifest_tmp" "$MANIFEST"; fi
say "$(wc -l < "$MANIFEST") packages pinned in ${MANIFEST#$ROOT/}"
