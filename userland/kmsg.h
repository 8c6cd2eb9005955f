/* SPDX-License-Identifier: MIT */
/*
 * The kernel log: kmsg_read_all() copies every message still buffered,
 * oldest first, afresh on each call (fingerprint.c, mpidr.c and the probes
 * drift, tsc and counter each make one); kmsg_message() strips a line's
 * prefix. See kmsg.c.
 */
#ifndef TP_KMSG_H
#define TP_KMSG_H

#include <stddef.h>

/*
 * Reads every message still in the kernel's ring buffer, oldest first, one
 * per line, into a malloc()ed NUL-terminated buffer (*text, *len): from
 * /dev/kmsg ("PRIO,SEQ,USEC,FLAGS;message") or, failing that, from
 * klogctl(SYSLOG_ACTION_READ_ALL) ("<PRIO>[   SEC.USEC] message").
 * *how says which ("/dev/kmsg" or "klogctl"). Returns 0 or -errno of the last
 * method tried (EPERM: dmesg_restrict and not root).
 */
int kmsg_read_all(char **text, size_t *len, const char **how);

/*
 * Strips either prefix from one line: returns the message and sets *usec to
 * the time stamp in microseconds since boot, or -1 when the line had none.
 * Lines that are /dev/kmsg dictionary continuations (" KEY=value") give NULL.
 */
const char *kmsg_message(const char *line, long long *usec);

#endif
