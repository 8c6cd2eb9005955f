/* SPDX-License-Identifier: MIT */
/*
 * The stub's own options, read from the user's line (s->user) with the
 * contract's rows and bounds (common/words.h), as the suite reads the same
 * words: the calibration's rounds and length, the pre-OS scan's window,
 * threshold and stuck CPU, the profile, an injected skew. EFI-free but for
 * the console a bad word is said on.
 */
#ifndef TP_BOOT_OPTIONS_H
#define TP_BOOT_OPTIONS_H

#include <stdint.h>

#include "../common/skew.h"
#include "../common/words.h"
#include "console.h"

/* Word id's value in line; its row's default when absent or bad (a bad one said). */
uint32_t tp_opt_u32(struct tp_console *con, const char *line, enum tp_word_id id);

/* *k from line's timeprobe.inject= (skew:REF:PPM), said when set. */
void tp_opt_skew(struct tp_console *con, const char *line, struct tp_skew *k);

/* 1 when line's profile is quick (the last valid timeprobe.profile=). */
int tp_opt_quick(const char *line);

#endif
