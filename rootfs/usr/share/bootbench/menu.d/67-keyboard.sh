# label: Keyboard layout (us, uk, de, fr, ...)
# The consoles' keyboard layout, as bootbench.keymap sets it at boot: every
# layout the image has (image/keymaps.table), the current one ticked. It
# holds for every virtual console until the next boot.
. /lib/bootbench/menu-lib.sh
list=/usr/share/bootbench/keymaps/list
current=$(cat /run/bootbench/keymap 2>/dev/null || echo us)
set --
while read -r name layout; do
	[ "$name" = "$current" ] && on=on || on=off
	set -- "$@" "$name" "$layout" "$on"
done < "$list"
pick=$(dialog --stdout --title " Keyboard layout " --radiolist "The layout of the keys: arrows and Space choose, Enter sets it." 20 70 12 "$@") || exit 0
[ -n "$pick" ] && grep -q "^$pick " "$list" || exit 0
if loadkmap < "/usr/share/bootbench/keymaps/$pick.bmap" 2>/tmp/menu-err.txt; then
	echo "$pick" > /run/bootbench/keymap
	dialog --msgbox "Keyboard: $(grep "^$pick " "$list" | cut -d' ' -f2-) ($pick). At boot: bootbench.keymap=$pick" 7 70
else
	dialog --msgbox "Cannot load $pick: $(head -n1 /tmp/menu-err.txt)" 7 70
fi
