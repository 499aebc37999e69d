# SPDX-License-Identifier: MIT
# The parts as the kernel unpacks them (scripts/build-rootfs.sh): each
# archive carries its large files in one squashfs image and a symlink for
# each of them into the image's mount point; what the boot needs before the
# mount (busybox, /init and the boot's scripts, modules.dep, loop.ko,
# squashfs.ko) and /etc are plain files. Unpacked here, archive and image,
# every file of the part's staging tree (out/rootfs, out/packs/NAME) is
# found with the same bytes, plain or through its symlink, and nothing else.
# tier: image (not in make check: it reads the built image)
. tests/lib.sh
need_commands unsquashfs cpio zstd xz
PARTS=lib/bootbench/parts
kver=$(ls out/rootfs/lib/modules 2>/dev/null | head -n1)
[ -n "$kver" ] || { echo "out/rootfs is missing: run 'make image'"; exit 1; }
# part file stage
# the loop reads a file, not a pipe: in a pipe's subshell its checks' failures would not count
awk '!/^[[:space:]]*#/ && NF { print $1, $2 }' image/packs.table > "$T/parts"
while read -r part file; do
	case $part in base) stage=out/rootfs ;; *) stage=out/packs/$part ;; esac
	u=$T/$part
	mkdir -p "$u"
	case $(head -c 4 "out/$file" | od -An -tx1 | tr -d ' ') in
	28b52ffd) zstd -dc "out/$file" ;;
	fd377a58) xz -dc "out/$file" ;;
	*) echo "out/$file: neither zstd nor xz" >&2 ;;
	esac | (cd "$u" && cpio -id --quiet)
	check "$part ($file): the archive carries its squashfs image" [ -f "$u/$PARTS/$part.sqfs" ] || continue
	unsquashfs -q -n -d "$T/$part.sq" "$u/$PARTS/$part.sqfs" >/dev/null
	check "... which unsquashfs reads" [ $? = 0 ]
	# every file of the stage: plain in the archive, or a symlink into the
	# mount point whose target in the image has the same bytes
	(cd "$stage" && find . -type f) | LC_ALL=C sort > "$T/$part.stage"
	: > "$T/$part.wrong"
	while read -r f; do
		if [ -L "$u/$f" ]; then
			target=$(readlink "$u/$f")
			case $target in "/$PARTS/$part/"*) ;; *) echo "$f -> $target: not into /$PARTS/$part" >> "$T/$part.wrong"; continue ;; esac
			cmp -s "$stage/$f" "$T/$part.sq/${target#/$PARTS/$part/}" || echo "$f: differs in $part.sqfs" >> "$T/$part.wrong"
		elif [ -f "$u/$f" ]; then
			cmp -s "$stage/$f" "$u/$f" || echo "$f: differs in the archive" >> "$T/$part.wrong"
		else
			echo "$f: missing" >> "$T/$part.wrong"
		fi
	done < "$T/$part.stage"
	check "... every file of $stage is there, plain or by its symlink, the same bytes ($(wc -l < "$T/$part.stage") files)" [ ! -s "$T/$part.wrong" ] ||
		head -n 5 "$T/$part.wrong"
	(cd "$T/$part.sq" && find . -type f) | LC_ALL=C sort > "$T/$part.image"
	check "... and the image holds those files alone ($(wc -l < "$T/$part.image") of them)" sh -c "
		sed 's|^\./||' '$T/$part.image' | while read -r f; do [ -L '$u'/\"\$f\" ] || echo \"\$f\"; done | grep -q . && exit 1; exit 0"
	check "... the image is the larger share of the part (>= half the stage's bytes)" sh -c "
		[ \$(cd '$T/$part.sq' && du -sb . | cut -f1) -ge \$(( \$(cd '$stage' && du -sb . | cut -f1) / 2 )) ]"
	rm -rf "$T/$part.sq"
	[ "$part" = base ] || continue
	for f in ./init ./bin/busybox ./lib/bootbench/boot.sh ./etc/rc.d/05-parts.sh ./etc/bootbench-release \
		./lib/modules/$kver/modules.dep ./lib/modules/$kver/kernel/drivers/block/loop.ko ./lib/modules/$kver/kernel/fs/squashfs/squashfs.ko; do
		check "base: ${f#./} is plain (the boot reads it before the mount)" sh -c "[ -f '$u/$f' ] && [ ! -L '$u/$f' ]"
	done
	check "base: the mount point is there" [ -d "$u/$PARTS/base" ]
	check "base: the release file records the squashfs images and the host's squashfs-tools" sh -c "
		grep -q '^compression lazy squashfs xz' '$u/etc/bootbench-release' && grep -q '^host squashfs-tools [0-9]' '$u/etc/bootbench-release'"
done < "$T/parts"
finish
