# label: Reboot
# Results on the stick are synced and it is unmounted first (init's shutdown).
dialog --yesno "Reboot now?" 6 30 && reboot
