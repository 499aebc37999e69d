# bootbench.ip and bootbench.net from the stick's bootbench.conf or the
# fetched config, both read after 30-network.sh: the links as they now say
# (network_links, /lib/bootbench/boot.sh). Before, a stick's ip= for a
# back-to-back cable and its net=off were accepted and not applied: the
# cabled port stayed without its address, DHCP ran on.
network_links
