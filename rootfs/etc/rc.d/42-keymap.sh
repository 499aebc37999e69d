# bootbench.keymap (the command line's, or bootbench.conf's, read by now):
# the keyboard layout of every virtual console, loaded before any console
# starts, so the menu, the shells and a typed consent all read the layout
# printed on the keys. The maps are compiled at build time
# (image/keymaps.table); a name the image lacks was refused by 10-params.sh.
# The menu's Keyboard entry changes it later.
if [ -n "${BB_KEYMAP:-}" ] && grep -q "^$BB_KEYMAP " /usr/share/bootbench/keymaps/list 2>/dev/null; then
	if loadkmap < "/usr/share/bootbench/keymaps/$BB_KEYMAP.bmap" 2>"$BB_RUNDIR/keymap.err"; then
		echo "$BB_KEYMAP" > "$BB_RUNDIR/keymap"
		log "keyboard: $(grep "^$BB_KEYMAP " /usr/share/bootbench/keymaps/list | cut -d' ' -f2-) ($BB_KEYMAP)"
	else
		log "keyboard: cannot load $BB_KEYMAP: $(head -n1 "$BB_RUNDIR/keymap.err"); the consoles keep the US layout"
	fi
fi
