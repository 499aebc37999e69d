# SPDX-License-Identifier: MIT
# A destination's content is untrusted: whoever can write a share (or the
# stick) can leave a symbolic link where bootbench save expects a folder of
# its own. No such link is ever followed: a stale .RUN.partial that is a link
# to a local folder is removed as a link (the folder keeps its files), a
# results/ or run folder that is a link stops the save with one line, and a
# spool line that names a folder other than a finished run is dropped.
# Each case here deleted or wrote local files before the fix. Nothing syncs
# the whole system after a save either (a dead share would hang it).
. tests/lib.sh
mkdir -p "$T/victim" "$T/run/20261203T000000Z_SER1_ab12cd"
R=$T/run/20261203T000000Z_SER1_ab12cd
RUN=${R##*/}
echo keep > "$T/victim/precious.txt"
mkdir "$T/victim/sub" && echo keep > "$T/victim/sub/deep.txt"
echo '{"jobs": []}' > "$R/sda.json"
echo 'log line' > "$R/console.log"
victim_intact() {
	[ "$(cat "$T/victim/precious.txt" 2>/dev/null)" = keep ] && [ "$(cat "$T/victim/sub/deep.txt" 2>/dev/null)" = keep ] &&
		[ "$(find "$T/victim" | wc -l)" = 4 ]
}
save() { "$BB" save --stick="$T/stick" --spool="$T/spool" "$@"; }
# linked_save WHERE: a fresh stick whose WHERE (below it) is a link to the victim, then a save; rc set
linked_save() {
	rm -rf "$T/stick"
	mkdir -p "$T/stick/results"
	rmdir "$T/stick/results"
	[ "$1" = results ] || mkdir -p "$T/stick/results"
	ln -s "$T/victim" "$T/stick/$1"
	save usb "$R" > "$T/out" 2>&1
	rc=$?
}

# 1. the stale temporary folder is a link to a local folder
linked_save "results/.$RUN.partial"
check "a .RUN.partial that is a link: the victim's files are all there" victim_intact
check "... the save went on: exit 0" [ $rc = 0 ]
check "... the run arrived whole" sh -c "[ -f '$T/stick/results/$RUN/MANIFEST.sha256' ] && [ ! -L '$T/stick/results/$RUN' ]"
check "... the link itself is gone" sh -c "[ ! -e '$T/stick/results/.$RUN.partial' ] && [ ! -L '$T/stick/results/.$RUN.partial' ]"

# 2. results/ on the stick is a link
linked_save results
check "results/ a link: exit 1" [ $rc = 1 ]
check "... saying links are not followed" grep -q "links are never followed" "$T/out"
check "... nothing was written through it" victim_intact

# 3. the run's final name is a link
linked_save "results/$RUN"
check "the run's folder a link: exit 1" [ $rc = 1 ]
check "... nothing was written through it, nothing removed" victim_intact
check "... no temporary folder is left beside it" [ -z "$(ls -A "$T/stick/results" | grep -v "^$RUN\$" | grep -v deliveries.log)" ]

# 4. the spool (on the stick, editable by anyone) names a local folder that is no run
mkdir -p "$T/secret" "$T/share"
echo 'password=hunter2' > "$T/secret/credentials"
rm -rf "$T/stick"
mkdir -p "$T/stick/results"
printf 'usb\t%s\n' "$T/secret" > "$T/spool"
save --pending > "$T/out" 2>&1
check "a spool line naming a folder without a manifest is dropped" grep -q "no finished run folder" "$T/out"
check "... nothing of it reached the stick" [ -z "$(grep -rl hunter2 "$T/stick" 2>/dev/null)" ]
ln -s "$R" "$T/runlink"
"$BB" save --stick=none --spool="$T/spool2" console "$R" > /dev/null 2>&1	# makes the run's manifest
printf 'usb\t%s\n' "$T/runlink" > "$T/spool"
save --pending > "$T/out" 2>&1
check "a spool line naming a link is dropped" grep -q "no finished run folder" "$T/out"

# 5. the spool itself is a link: not followed
ln -sf "$T/victim/precious.txt" "$T/spool"
save --pending > "$T/out" 2>&1
check "a spool that is a link is neither read nor emptied through it" victim_intact

# after a share was force-detached a system-wide sync() waits on it, maybe
# for ever: what was written is synced by its own descriptor (syncfs)
check "no system-wide sync() in bootbench's sources (syncfs of what was written)" \
	sh -c "! grep -rn '[^a-z_]sync()' tools/bootbench --include=*.c | grep -v '^[^:]*:[0-9]*:[[:space:]]*\*'"
finish
