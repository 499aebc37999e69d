# label: View saved results
# The summaries of this boot's runs and of the runs saved on the stick.
. /lib/bootbench/menu-lib.sh
set --
for d in /run/bootbench/results/* /media/bootbench/results/*; do
	[ -d "$d" ] || continue
	for f in "$d"/summary.txt "$d"/*.txt; do [ -f "$f" ] && { set -- "$@" "$f" ""; break; }; done
done
[ $# -gt 0 ] || { dialog --msgbox "No results yet." 6 40; exit 0; }
f=$(dialog --stdout --title " Results " --menu "Which run?" 20 78 12 "$@") || exit 0
show_file "${f#/*/*/*/}" "$f"
