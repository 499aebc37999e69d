# SPDX-License-Identifier: MIT
# screen_fits.sh - the screen checker the menu's boot tests use
# (tests/screen_fits.py) fails on what it is there to find: a menu item
# dialog cut at its list's edge, a text box's line cut at its padding, a
# line wider than 80 columns; and passes a message box dialog folded to its
# last column and a screen whose text keeps clear of the edges.
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
finish
