/* SPDX-License-Identifier: MIT */
/*
 * SMBIOS OEM strings (type 11) as command-line words. A host can hand the
 * appliance words without rewriting its disk: QEMU's
 * `-smbios type=11,value=timeprobe.accel=tcg:max` (tools/qemu-run.sh does
 * this) puts them in the firmware's SMBIOS table, and Linux shows the raw
 * table as /sys/firmware/dmi/tables/DMI. Only strings that are one word
 * starting with "timeprobe." are taken; PID 1 applies them after the
 * kernel command line through the same parser.
 */
#ifndef TP_SMBIOS_H
#define TP_SMBIOS_H

#include <stddef.h>

#define SMBIOS_TYPE_OEM_STRINGS 11
#define SMBIOS_TYPE_END 127

/*
 * Walks an SMBIOS structure table (DSP0134 3.x, 6.1.2: a formatted area of
 * hdr[1] bytes, then strings each ending in NUL, the set ending in a second
 * NUL) and appends every type 11 string that begins with "timeprobe." and is
 * printable ASCII without spaces to out, separated by spaces. Damaged or cut
 * structures end the walk; what was found before them is kept. Returns the
 * number of words taken, or -1 when out was too small for one of them (the
 * words before it are kept).
 */
int smbios_oem_words(const unsigned char *tbl, size_t len, char *out, size_t outlen);

#endif
