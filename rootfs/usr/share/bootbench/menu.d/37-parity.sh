# label: Parity CPU check
# bootbench parity: this CPU's RAID5/RAID6 parity throughput beside the
# kernel's figures; then, if asked, the verdict for a disk set: the disks'
# aggregate write bandwidth (measured, so it needs consent) against it.
. /lib/bootbench/menu-lib.sh
dialog --infobox "Measuring parity throughput on every implementation and core..." 5 60
show "Parity CPU check" bootbench parity
dialog --yesno "Measure a set of disks for the verdict: will RAID5/6 on them be bound by this CPU?\n\nTheir sequential write bandwidth is measured by writing them: everything on them is lost." 10 64 || exit 0
pick_disks "Parity verdict: disks" 2 || exit 0
disks=$PICKED
consent $disks || { dialog --msgbox "Not confirmed: nothing was written." 6 50; exit 0; }
targets="" destroy=""
for d in $disks; do targets="$targets /dev/$d"; destroy="${destroy:+$destroy,}/dev/$d"; done
dialog --infobox "Writing$targets at once, then measuring parity..." 5 70
show "Parity verdict" bootbench parity --destroy="$destroy" $targets
