# SPDX-License-Identifier: MIT
# The image build's bad inputs: a missing build tool names the package to
# install; a package that Debian does not have is named, with exit 2 and no
# manifest written. Rows: what is wrong, the command, the message expected.
. tests/lib.sh
# A PATH with every command of this host except the ones a row takes away.
# One ln a folder (a name in two folders: the first one's, as PATH finds it;
# ln says so of the others, unheard), then the ones taken away.
path_without() {
	d=$T/bin-$1; mkdir -p "$d"
	for dir in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
		ln -s "$dir"/* "$d"/ 2>/dev/null
	done
	for n in "$@"; do rm -f "$d/$n"; done
	echo "$d"
}
row() { # description expected-status expected-message command...
	d=$1 want=$2 msg=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	if [ $rc = "$want" ] && echo "$out" | grep -qF -- "$msg"; then ok "$d"; else bad "$d (exit $rc: $out)"; fi
}
row "no mtools: build-image names the package" 2 "mformat is missing: apt-get install mtools" \
	env PATH="$(path_without mformat mcopy mmd)" scripts/build-image.sh
row "no xorriso: build-image names the package" 2 "xorriso is missing: apt-get install xorriso" \
	env PATH="$(path_without xorriso)" scripts/build-image.sh
row "no zstd: build-rootfs names the package" 2 "zstd is missing: apt-get install zstd" \
	env PATH="$(path_without zstd)" scripts/build-rootfs.sh
row "no QEMU: qemu.sh names the package" 2 "apt-get install qemu-system-x86" \
	env PATH="$(path_without qemu-system-x86_64)" scripts/qemu.sh --kernel out/vmlinuz
if [ -f dl/apt/sources.list ]; then
	printf 'bootbench-no-such-package tool\n' > "$T/bad.list"
	before=$(sha256sum dl/manifest.tsv)
	row "a package Debian does not have is named" 2 "package 'bootbench-no-such-package'" \
		env PACKAGES="$T/bad.list" scripts/fetch.sh
	check "the manifest is untouched" [ "$(sha256sum dl/manifest.tsv)" = "$before" ]
	check "no partial manifest is left" [ ! -e dl/manifest.tsv.tmp ]
	# BOOTBENCH_PINS (issue 21): a version the archive no longer serves, a
	# package without a pin, a file that is no pins file; each refused,
	# named, the manifest untouched
	make --no-print-directory pins > "$T/pins"
	check "make pins prints a pin a package" sh -c "[ \$(grep -vc '^#' '$T/pins') = \$(wc -l < dl/manifest.tsv) ] &&
		grep -q '^kernel linux-image-6[^ ]* [^ ]* [0-9a-f]\{64\}\$' '$T/pins'"
	sed 's/^\(tool mdadm \)[^ ]*/\14.0-1/' "$T/pins" > "$T/pins-old"
	row "a pinned version the archive no longer serves is named" 2 \
		"package 'mdadm' 4.0-1 (pinned in $T/pins-old) is no longer in the archive" \
		env BOOTBENCH_PINS="$T/pins-old" scripts/fetch.sh
	grep -v ' mdadm ' "$T/pins" > "$T/pins-less"
	row "a package without a pin is named" 2 "package 'mdadm' has no pin in $T/pins-less" \
		env BOOTBENCH_PINS="$T/pins-less" scripts/fetch.sh
	# a checksum not the archive's (one pins file may hold both machines'
	# pins: a package's checksum is one of its lines', as linux-kbuild's two)
	awk '$2 == "mdadm" { $4 = "0000000000000000000000000000000000000000000000000000000000000000" } { print }' "$T/pins" > "$T/pins-sum"
	row "a checksum the archive's file does not have is named" 2 "package 'mdadm' $(awk '$2 == "mdadm" { print $3 }' "$T/pins"): the archive's checksum is not the one pinned" \
		env BOOTBENCH_PINS="$T/pins-sum" scripts/fetch.sh
	{ cat "$T/pins-sum"; grep ' mdadm ' "$T/pins"; } > "$T/pins-both"
	row "... one of its lines' checksums the archive's: the build proceeds" 0 "packages pinned" \
		env BOOTBENCH_PINS="$T/pins-both" scripts/fetch.sh
	echo "mdadm" > "$T/pins-bad"
	row "a file that is no pins file is refused" 2 "not a pins file" \
		env BOOTBENCH_PINS="$T/pins-bad" scripts/fetch.sh
	check "... the manifest is untouched" [ "$(sha256sum dl/manifest.tsv)" = "$before" ]
	row "the pins as they are: the build proceeds" 0 "packages pinned" env BOOTBENCH_PINS="$T/pins" scripts/fetch.sh
	# a folder with no debs yet (a fresh machine's): what the list needs is downloaded, and a
	# deb that is not the index's is downloaded again (one small package, from the archive, into
	# a copy of dl/ with its index and sources: nothing else fetched, dl/ untouched)
	S=$T/dl
	dl_before=$(sha256sum dl/manifest.tsv; ls -l --time-style=+%s dl/debs dl/src)
	mkdir -p "$S/src"
	cp -a dl/apt "$S/apt"
	for f in dl/src/*; do
		case $f in *.stamp) cp -a "$f" "$S/src/" ;; *) ln -s "$PWD/$f" "$S/src/" ;; esac
	done
	printf 'libaio1\n' > "$T/one.list"	# a library: no closure of its own
	deb() { awk -F'\t' '$2 == "libaio1" { print $5 }' "$S/manifest.tsv"; }
	sha() { awk -F'\t' '$2 == "libaio1" { print $4 }' "$S/manifest.tsv"; }
	row "no debs yet: the list's package is downloaded" 0 "downloading 1 packages: libaio1" \
		env DL="$S" PACKAGES="$T/one.list" scripts/fetch.sh
	got=$(sha256sum < "$S/debs/$(deb)" | cut -d' ' -f1)
	check "... and is the index's file" [ -n "$(sha)" -a "$got" = "$(sha)" ]
	echo "not a deb" > "$S/debs/$(deb)"
	row "a deb that is not the index's is downloaded again" 0 "downloading 1 packages: libaio1" \
		env DL="$S" PACKAGES="$T/one.list" scripts/fetch.sh
	env DL="$S" PACKAGES="$T/one.list" scripts/fetch.sh > "$T/kept.out" 2>&1; rc=$?
	check "... and one that is, kept: exit 0, nothing downloaded ($(tr '\n' ' ' < "$T/kept.out"))" sh -c \
		"[ $rc = 0 ] && ! grep -q downloading '$T/kept.out' && grep -q 'packages pinned in' '$T/kept.out'"
	check "dl/ untouched by the copy's runs (its manifest, debs and sources)" \
		[ "$(sha256sum dl/manifest.tsv; ls -l --time-style=+%s dl/debs dl/src)" = "$dl_before" ]
fi
row "a bad firmware name is refused" 2 "--fw floppy: expected bios, uefi or secureboot" \
	scripts/qemu.sh --fw floppy --kernel out/vmlinuz
finish
