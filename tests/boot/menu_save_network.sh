# SPDX-License-Identifier: MIT
# Boot test (issue 15, menu): on the serial console, through tmux, as a
# person would. The stick's bootbench.conf names a WebDAV destination over
# HTTPS (nginx on this host, reached at QEMU's gateway 10.0.2.2, its CA on
# the stick) with its credential. Network -> Test a destination proves the
# configured one is writable and a typed URL to a closed port is not; Run a
# profile -> quick on the NVMe disk; Save results offers the configured
# destination, shows bootbench save's lines as they come and the outcome;
# the host finds the folder whole against its manifest. A typed URL that
# is malformed is refused with one line, nothing sent.
. tests/bootlib.sh
. tests/servers.sh
need_artifacts
need_commands tmux nginx openssl mcopy
start_webdav || { bad "nginx starts"; finish; }
DEST="https://bench@10.0.2.2:$DAV_PORT/menu/"
stick_with_conf "$T/stick.img" scale=0.02 "save=usb,$DEST" ca=ca.crt "credential=$DEST $PASSWORD"
mcopy -o -i "$T/stick.img@@1M" "$T/ca/ca.crt" ::/ca.crt
truncate -s 1G "$T/nvme.img"
console_boot 80 24 "--fw bios --usb '$T/stick.img' --disk nvme:'$T/nvme.img'"
step "the menu comes up on the serial console" "Esc goes back" 240
keys 6 Enter
step "Network shows the links and their addresses" "10.0.2.15" 30
check "... and offers to test a destination" shows "Test a destination"
keys t Enter
step "Test offers the configured destination, its whole URL" "1  *https://bench@10.0.2.2:$DAV_PORT/menu/" 30 E
keys Enter
step "the configured destination is writable" "writable" 60
check "... the test left nothing on the share" sh -c "[ -z \"\$(ls -A '$T/dav/menu' 2>/dev/null)\" ]"
keys Enter
step "back in Network" "Test a destination" 30
keys t Enter
step "Test asks again" "Where to?" 30
keys Down Enter
step "a URL can be typed" "Destination, e.g." 30
type_line "https://10.0.2.2:1/x/"
step "a closed port fails in one line" "FAILED: cannot connect to 10.0.2.2 port 1" 60
keys Enter
step "... back in Network" "Test a destination" 30
keys Escape
step "back in the menu" "Esc goes back" 30
menu_start_quick nvme0n1
step "the run ends and its table is shown" "quick: results" 300
step "the run exited 0" "exit status 0" 30
keys Enter
step "back in the menu after the table" "Esc goes back" 30
keys 5 Enter
step "Save asks where" "Where to?" 30
check "... the stick first" shows "usb  *results/ on the stick"
check "... the configured WebDAV destination is offered, its whole URL" shows "https://bench@10.0.2.2:$DAV_PORT/menu/"
keys Down Down Enter
step "a URL can be typed" "Destination, e.g." 30
type_line "ftp://10.0.2.2/x"
step "a malformed URL is refused in one line" "unknown scheme 'ftp'" 30
keys Enter
step "back in the menu after the refusal" "Esc goes back" 30
keys 5 Enter
step "Save asks where again" "Where to?" 30
keys Down Enter
step "the save reports each destination's outcome" "1 of 1 run(s) delivered" 120
check "... bootbench save's line is shown" shows "delivered 20"
folder=$(ls "$T/dav/menu" 2>/dev/null | grep -v '^\.' | head -n1)
check "the share has one folder, whole against its manifest" check_manifest "$T/dav/menu/$folder"
check "... with the quick run's JSON" grep -q BBNVME1 "$T/dav/menu/$folder/quick-nvme0n1.json"
check "the password is not on the screen" sh -c "! $TM capture-pane -p -J -S - -t vm | grep -qF 'pa,ss'"
keys Enter
step "back in the menu after saving" "Esc goes back" 30
menu_power_off
finish
