# label: View saved results
# The summaries of this boot's runs and of the runs saved on the stick,
# listed by their folders' names (<UTC>_<machine>_<kind>-ID) and where
# each is: a number is the menu's tag, so a long path is never what a
# person reads, cut at the box's edge. A run's summary.txt is its screen
# as the menu showed it; a folder without one shows its first text file.
. /lib/bootbench/menu-lib.sh
set --
: > /tmp/menu-results
n=0
for d in /run/bootbench/results/* /media/bootbench/results/*; do
	[ -d "$d" ] || continue
	f=""
	for c in "$d"/summary.txt "$d"/*.txt; do [ -f "$c" ] && { f=$c; break; }; done
	[ -n "$f" ] || continue
	n=$((n + 1))
	echo "$f" >> /tmp/menu-results
	case "$d" in /media/*) where="the stick" ;; *) where="this boot" ;; esac
	set -- "$@" "$n" "$(echo "${d##*/} ($where)" | fit 66)"
done
[ $# -gt 0 ] || { dialog --msgbox "No results yet." 6 40; exit 0; }
pick=$(dialog --stdout --title " Results " --menu "Which run?" 20 78 12 "$@") || exit 0
f=$(sed -n "${pick}p" /tmp/menu-results)
[ -n "$f" ] && show_file "$(basename "$(dirname "$f")")" "$f"
