# SPDX-License-Identifier: MIT
# Shared by the menu entries: the back title, showing a command's output,
# picking disks and destinations, and consent (the device names typed back).
RESULTS_RUN=/run/bootbench/results

menu_backtitle() {
	echo "bootbench $(bootbench version | awk '{print $NF}') - $(hostname) - $(cut -d' ' -f1 /proc/uptime | cut -d. -f1) s up"
}

# show TITLE COMMAND...: the command's output in a scrollable box; the
# command's exit status. The box's text area is 74 columns: bootbench's
# tables fit COLUMNS=73 (one blank column before the edge, so nothing
# looks cut), and a longer line (another program's message) is folded at
# words, never cut or split mid-word.
show() {
	t=$1; shift
	COLUMNS=73 "$@" > /tmp/menu-out.raw 2>&1
	show_rc=$?
	show_file "$t" /tmp/menu-out.raw
	return $show_rc
}
# show_file TITLE FILE: a file (a run's summary) in the same box, folded the same way
show_file() {
	fold -s -w 73 < "$2" > /tmp/menu-out.txt
	dialog --title " $1 " --exit-label "Back" --textbox /tmp/menu-out.txt 22 78
}

# erase_table FIFO TABLE: bootbench erase's --progress-fd lines ("erase
# DISK PHASE PASS PASSES PCT MB_S SECONDS_LEFT ERRORS", every disk each
# second) as a table of the latest line per disk, TABLE rewritten whole at
# each round (a round starts again at the first disk): 74 columns, a line
# a disk, so 18 disks fit a 22-line box; with more, the first 17 and a
# line for the rest (how many have ended, their errors), never rows cut
# off unseen by the box.
erase_table() {
	awk -v out="$2" '
	function hms(s) { return s < 0 ? "-" : sprintf("%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
	function flush(  i, f, shown, erased, excepted, not_erased, errs) {
		printf "%-12s %-10s %5s %6s %8s %9s %7s\n", "DISK", "PHASE", "PASS", "DONE", "MB/s", "LEFT", "ERRORS" > out
		shown = n > 18 ? 17 : n
		for (i = 1; i <= shown; i++) {
			split(row[order[i]], f, " ")
			printf "%-12.12s %-10s %2d/%-2d %5.1f%% %8.1f %9s %7.0f\n", f[2], f[3], f[4], f[5], f[6], f[7], hms(f[8]), f[9] > out
		}
		if (n > shown) {
			for (i = shown + 1; i <= n; i++) {
				split(row[order[i]], f, " ")
				# the end of a disk is its verdict (bootbench erase --progress-fd)
				erased += f[3] == "erased"; excepted += f[3] == "exceptions"; not_erased += f[3] == "not-erased"
				errs += f[9]
			}
			printf "and %d more: %d erased, %s%d NOT erased, %d not yet; %.0f errors\n", n - shown, erased,
				excepted ? excepted " with exceptions, " : "", not_erased, n - shown - erased - excepted - not_erased, errs > out
		}
		close(out)
	}
	$1 == "erase" && NF == 9 {
		if ($2 == order[1] && n) flush()
		if (!($2 in row)) order[++n] = $2
		row[$2] = $0
	}
	END { if (n) flush() }' < "$1"
}

# erase_table_box TABLE: the table in its box, its columns kept (dialog
# squeezes a text's runs of blanks unless told not to)
erase_table_box() {
	dialog --no-collapse --title " Erasing: every disk at once " --infobox "$(cat "$1")" 22 78
}

# titled_on WIDTH LEAD DISK...: the title of a box WIDTH wide, " LEAD on
# DISK... ", or where that runs past the box (dialog writes a longer title
# over its border, cut unmarked) " LEAD on N disks: FIRST ... LAST "
titled_on() {
	_w=$1 _lead=$2; shift 2
	_t=" $_lead on $* "
	if [ ${#_t} -gt $((_w - 4)) ] && [ $# -gt 2 ]; then
		eval "_last=\${$#}"
		_t=" $_lead on $# disks: $1 ... $_last "
	fi
	# still too long (a long name, a long lead): cut, and marked
	[ ${#_t} -le $((_w - 4)) ] || _t="$(printf '%s' "$_t" | cut -c1-$((_w - 9)))... "
	printf '%s' "$_t"
}

# fit N: each line of stdin at most N columns; a longer one cut at a word
# with "..." (a menu item's text that dialog would cut off silently)
# fold_live WIDTH: stdin folded at blanks to WIDTH columns, each line passed
# on as it comes (fold's output to a pipe waits for its buffer: a box fed
# by it would stay empty through a long save)
fold_live() {
	awk -v n="$1" '{ s = $0
		while (length(s) > n) {
			t = substr(s, 1, n)
			if (match(t, / [^ ]*$/) && RSTART > 1) t = substr(s, 1, RSTART - 1)
			print t; s = substr(s, length(t) + 1); sub(/^ +/, "", s)
		}
		print s; fflush() }'
}

# ipv4 TEXT [prefix]: TEXT is a dotted IPv4 address (four numbers 0-255,
# no leading zeros: some parsers read them as octal), with "prefix":
# followed by /0 to /32. What a person types is checked
# before anything is changed.
ipv4() {
	echo "$1" | awk -F/ -v want="${2:-}" '
		function num(x) { return x ~ /^(0|[1-9][0-9]?[0-9]?)$/ && x + 0 <= 255 }
		{ ok = (want == "prefix") ? NF == 2 && $2 ~ /^(0|[1-9][0-9]?)$/ && $2 + 0 <= 32 : NF == 1
		  n = split($1, o, ".")
		  ok = ok && n == 4 && num(o[1]) && num(o[2]) && num(o[3]) && num(o[4]) }
		END { exit !(ok && NR == 1) }'
}

# host_ok ADDR/PREFIX [GATEWAY]: ADDR (ipv4's, with its prefix) is one a
# host can take on its network, and GATEWAY (when given) is on that
# network and not ADDR: not 0.x, 127.x or 224.0.0.0 and up, a prefix of 8
# or more, not the network's own address or its broadcast below /31. What
# ip takes and then leaves a link without a working address or route
# (0.0.0.0/0 adds nothing; a gateway off the network fails after the
# flush) is refused before the link is touched.
host_ok() {
	awk -v a="$1" -v g="${2:-}" '
	function n(x, o) { split(x, o, "."); return ((o[1] * 256 + o[2]) * 256 + o[3]) * 256 + o[4] }
	function bad(x, f) { f = int(x / 16777216); return f == 0 || f == 127 || f >= 224 }
	BEGIN { split(a, p, "/"); x = n(p[1]); b = p[2] + 0; s = 2 ^ (32 - b)
		if (b < 8 || bad(x) || (b <= 30 && (x % s == 0 || x % s == s - 1))) exit 1
		if (g == "") exit 0
		y = n(g)
		exit !(!bad(y) && y != x && int(y / s) == int(x / s) && (b > 30 || (y % s != 0 && y % s != s - 1))) }'
}

fit() {
	awk -v n="$1" 'length($0) <= n { print; next }
		{ s = substr($0, 1, n - 3); if (match(s, / [^ ]*$/) && RSTART > n / 2) s = substr(s, 1, RSTART - 1)
		  print s "..." }'
}

# The disks a profile may run on, as dialog checklist items: name, its
# size, bus, model and serial, off. Disks whose WRITES column says refused
# (the media, anything mounted or in use) are not offered.
disk_items() {
	COLUMNS=200 bootbench disks | awk 'NR > 1 && /^[^ (]/ && $NF == "allowed" {
		name = $1; rest = $0; sub(/^[^ ]+ +/, "", rest); sub(/ +allowed$/, "", rest); gsub(/ +/, " ", rest)
		printf "%s\n%s\noff\n", name, rest }' | fit 56
}

# pick_disks TITLE MIN: a checklist of the disks that may be written; the
# names ticked go to $PICKED. False, after saying why, when fewer than MIN
# can be written or are ticked, or on Esc.
pick_disks() {
	pick_title=$1 pick_min=$2
	disk_items > /tmp/menu-disks
	set --
	while IFS= read -r n && IFS= read -r d && IFS= read -r s; do set -- "$@" "$n" "$d" "$s"; done < /tmp/menu-disks
	if [ $# -lt $(( pick_min * 3 )) ]; then
		dialog --msgbox "Fewer than $pick_min disk(s) can be written: the boot and results media, and disks mounted or in use, are not offered." 8 64
		return 1
	fi
	PICKED=$(dialog --stdout --title " $pick_title " --checklist "Space ticks a disk, Enter goes on." 18 78 10 "$@") || return 1
	PICKED=$(echo $PICKED | tr -d '"')
	[ $(echo $PICKED | wc -w) -ge $pick_min ] && return 0
	dialog --msgbox "Tick $pick_min disk(s) or more." 6 40
	return 1
}

# consent NAMES: the user types the device names back; 0 only on an exact match.
consent() {
	# as tall as its devices need (dialog folds them at 72 columns): a fixed height let
	# dialog draw many disks over its own buttons; 23 rows at most, an 80x24 console's
	_rows=$(echo "  $*" | fold -s -w 70 | wc -l)
	_h=$((12 + _rows))
	if [ "$_h" -le 23 ]; then
		typed=$(dialog --stdout --max-input 8192 --title " Consent " --inputbox \
"Everything on these disks will be overwritten:

  $*

Type the device names exactly as above (separated by spaces) to go on,
or Esc to go back." "$_h" 76)
	else
		# more than a box holds with its question (a shelf of disks): the
		# names first, one a line, scrolled through, then the question;
		# none of them is ever off the screen unseen. (The button's label
		# is its hotkey: not a letter the text box scrolls with, as G is.)
		# a file of its own: the menu runs on several consoles at once
		_list=$(mktemp) || return 1
		printf '%s\n' "$@" > "$_list"
		dialog --title " Consent: these $# disks will be overwritten " --exit-label "Continue" \
			--textbox "$_list" 23 76 || { rm -f "$_list"; return 1; }
		rm -f "$_list"
		eval "_last=\${$#}"
		typed=$(dialog --stdout --max-input 8192 --title " Consent " --inputbox \
"Everything on the $# disks just listed ($1 to $_last) will be overwritten.

Type the $# device names exactly as listed (separated by spaces) to go on, or Esc to go back." 12 76)
	fi
	[ "$typed" = "$*" ]
}

# The network destinations bootbench.save names, one a line.
configured_dests() { echo "${BB_SAVE:-}" | tr ',' '\n' | grep -vxE 'usb|console|none|'; }

# pick_dest TITLE [stick]: a menu of the stick (with "stick", when one is
# mounted for results), each destination bootbench.save names (numbered,
# the whole URL shown), or one typed in and checked by bootbench save
# --check. The URL (or usb) goes to $DEST. False on Esc, or after saying
# why a typed URL is malformed.
pick_dest() {
	pick_title=$1 pick_stick=${2:-}
	set --
	[ "$pick_stick" = stick ] && grep -q '^results ' /run/bootbench/media 2>/dev/null && set -- usb "results/ on the stick"
	i=0
	for d in $(configured_dests); do i=$((i + 1)); set -- "$@" "$i" "$d"; done
	set -- "$@" url "type a destination (nfs://, nfs3://, smb://, https://)"
	DEST=$(dialog --stdout --title " $pick_title " --menu "Where to? (numbered: from bootbench.save)" 14 78 6 "$@") || return 1
	case "$DEST" in
	usb) ;;
	url)
		DEST=$(dialog --stdout --inputbox "Destination, e.g. nfs://10.0.0.5/export/results or smb://user@fs1/share/dir:" 9 78) || return 1
		if ! why=$(bootbench save --check "$DEST" 2>&1); then
			dialog --msgbox "${why#bootbench: save: }" 8 78
			return 1
		fi ;;
	*) DEST=$(configured_dests | sed -n "${DEST}p") ;;
	esac
}
