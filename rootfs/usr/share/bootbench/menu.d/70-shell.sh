# label: Shell
# A shell with every tool; `exit` comes back to the menu.
clear
echo "Type 'exit' to return to the menu."
sh -l
