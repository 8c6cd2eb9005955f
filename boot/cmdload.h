/* SPDX-License-Identifier: MIT */
/*
 * The user's words from their source (docs/stub.md, "Command line
 * hand-off"): \EFI\timeprobe\cmdline.txt when the stub's volume has one;
 * else, in single-file mode, the embedded .cmdline; else the built-in line.
 * Cleaned to one line (cmdfile.c, EFI-free) into s->user; each thing the
 * cleaner dropped or decoded is said (stub_warning records).
 */
#ifndef TP_BOOT_CMDLOAD_H
#define TP_BOOT_CMDLOAD_H

struct tp_stub;

/* s->user, s->cmdline_source ("file", "embedded", "builtin"), s->cmdline_from, s->encoding. */
void tp_cmd_load(struct tp_stub *s);

#endif
