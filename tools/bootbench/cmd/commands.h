/* SPDX-License-Identifier: MIT */
/*
 * commands.h - every command, in `bootbench help`'s order, once: main.c
 * makes its table from this list (COMMAND(id) names id_command, declared
 * in cmd/ID.c), so a new command is one file and one line here.
 */
COMMAND(run)
COMMAND(profile)
COMMAND(raid)
COMMAND(parity)
COMMAND(erase)
COMMAND(burnin)
COMMAND(iperf_server)
COMMAND(save)
COMMAND(syslog)
COMMAND(fetch_config)
COMMAND(ssh_keys)
COMMAND(chroot)
COMMAND(fsck)
COMMAND(fio_server)
COMMAND(sandbox_check)
COMMAND(report)
COMMAND(compare)
COMMAND(fleet)
COMMAND(disks)
COMMAND(sysinfo)
COMMAND(inventory)
COMMAND(version)
COMMAND(menu)
COMMAND(help)
