/* SPDX-License-Identifier: MIT */
/*
 * LAVA monitor lines (timeprobe.lava, docs/lava.md): after each result
 * record on the consoles, one line per headline figure of it,
 *
 *	TPM <case> <value> <unit>
 *
 * in the shape a LAVA test monitor (lava_dispatcher/actions/test/monitor.py)
 * records as a passing test case with a measurement and units, every group
 * always present: case is probe.name[.identity...].key in [A-Za-z0-9._-],
 * value the record's number as written, unit the key's declared unit
 * ("none" for a count without one). A headline figure is a key the probe's
 * table declares a figure (struct probe_key, PK_FIGURE); nothing else.
 * tools/lava/qemu-measure.yaml holds the matching monitor pattern.
 */
#ifndef TP_LAVAMON_H
#define TP_LAVAMON_H

#include <stddef.h>

#define LAVAMON_TAG "TPM"
/* The longest line written, newline included; a longer result name is cut, never the key. */
#define LAVAMON_LINE_MAX 400

/*
 * For one line of a probe's output: when it is a result record whose CRC
 * holds, of a probe the registry knows, calls put once per headline
 * figure with a number value, with the line (ending in '\n'). Returns how
 * many lines it put.
 */
size_t lavamon_lines(const char *line, size_t len, void (*put)(const char *line, size_t len));

#endif
