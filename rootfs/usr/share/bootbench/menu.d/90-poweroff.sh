# label: Power off
dialog --yesno "Power off now?" 6 30 && poweroff
