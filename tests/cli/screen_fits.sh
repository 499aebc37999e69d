# SPDX-License-Identifier: MIT
# screen_fits.sh - the screen checker the menu's boot tests use
# (tests/screen_fits.py) fails on what it is there to find: a menu item
# dialog cut at its list's edge, a text box's line cut at its padding, a
# line wider than 80 columns; and passes a message box dialog folded to its
# last column and a screen whose text keeps clear of the edges. --text (a
# command's console output): a disk's words outside its block fail, and so
# does a word the folding cut or lost.
. tests/lib.sh
fits() { python3 tests/screen_fits.py > "$T/why" < "$T/screen"; }
screen() { cat > "$T/screen"; }

screen <<'S'
 +----------------------------- Run a profile --------------------------------+
 | Which method?                                                              |
 | +------------------------------------------------------------------------+ |
 | |quick     4k random read QD32, 1M sequential read, 4k random write QD32,| |
 | |yabs      YABS's disk test                                              | |
 | +------------------------------------------------------------------------+ |
 +----------------------------------------------------------------------------+
 |                       <  OK  >            <Cancel>                         |
 +----------------------------------------------------------------------------+
S
fits; rc=$?
check "a menu item cut at its list's edge fails, its line named" sh -c "[ $rc = 1 ] && grep -q '^line 4: text runs into the box edge' '$T/why'"
sed -i 's/QD32,| |/     | |/' "$T/screen"
check "... and passes once it keeps clear of the edge" fits

screen <<'S'
 +---------------------------- Parity CPU check ------------------------------+
 | one core        RAID5 (P)    RAID6 (P+Q)   (4 data disks, 64 KiB each, MB/ |
 | scalar               1709           1486                                   |
 +----------------------------------------------------------------------------+
 |                                 < Back >                                   |
 +----------------------------------------------------------------------------+
S
fits; rc=$?
check "a text box's line cut at its padding fails" sh -c "[ $rc = 1 ] && grep -q '^line 2: ' '$T/why'"

screen <<'S'
        +--------------------------------------------------------------+
        | Measure a set of disks for the verdict: will RAID5/6 on them |
        | be bound by this CPU?                                        |
        +--------------------------------------------------------------+
        |                   < Yes >          < No  >                   |
        +--------------------------------------------------------------+
S
check "a message box dialog folded to its last column passes" fits

printf '%s\n' " +----+" " | ok |" " +----+" "$(printf 'x%.0s' $(seq 1 81))" | screen
fits; rc=$?
check "a line wider than 80 columns fails" sh -c "[ $rc = 1 ] && grep -q 'is 81 columns' '$T/why'"
printf 'plain text\n' | screen
fits; rc=$?
check "a screen without a box is not passed" [ $rc = 2 ]

# burnin's verdicts as they were (issue 48): both disks' reasons run on in
# one paragraph, the second's starting mid-line under the first's
screen <<'S'
COMPONENT VERDICT  WHY
disks     ERROR    sda: no self-test: sda has no self-test bootbench can start
                   (burnin_disks_need_selftest=0 accepts that); sdb: no
                   self-test: sdb has no self-test bootbench can start
  pass                   /dev/sda: read, 88.0MiB in 3 s
  pass                   /dev/sdb: read, 88.0MiB in 3 s
machine   ERROR    PASS needs every component to pass
S
textfits() { python3 tests/screen_fits.py --text "$@" > "$T/why" < "$T/screen"; }
textfits --device /dev/sda --device /dev/sdb; rc=$?
check "--text: a disk's words outside its own block fail, the line named" sh -c \
	"[ $rc = 1 ] && grep -q '^line 3 names /dev/sdb outside its block' '$T/why'"
screen <<'S'
COMPONENT VERDICT  WHY
disks     ERROR    each device's reasons are under its name
  /dev/sda
    why:                 sda: no self-test: sda has no self-test bootbench
                         can start (burnin_disks_need_selftest=0 accepts
                         that)
    pass                 /dev/sda: read, 88.0MiB in 3 s
  /dev/sdb
    why:                 sdb: no self-test: sdb has no self-test bootbench
                         can start
    pass                 /dev/sdb: read, 88.0MiB in 3 s
machine   ERROR    PASS needs every component to pass
S
check "... and passes with a block a disk" textfits --device /dev/sda --device /dev/sdb
tr -s ' ' < "$T/screen" | tr '\n' ' ' > "$T/unfolded"
check "--unfolded: the same words, folded, pass" textfits --unfolded "$T/unfolded"
sed -i 's/bootbench$/boot-/; s/^\(  *\)can start (burnin/\1bench can start (burnin/' "$T/screen"
textfits --unfolded "$T/unfolded"; rc=$?
check "... a word cut at the fold fails" sh -c "[ $rc = 1 ] && grep -q \"^word [0-9]* is 'boot-' on the screen, 'bootbench' unfolded\" '$T/why'"
finish
