// SPDX-License-Identifier: MIT
/* The sink: records kept within the caps, the parent's always, write errors seen. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../userland/sink.h"

static void rec_line(char *buf, size_t len, int i)
{
	struct tp_rec r;

	tp_rec_begin(&r, "result");
	tp_rec_int(&r, "i", i);
	snprintf(buf, len, "%s", tp_rec_finish(&r));
}

int main(void)
{
	int devnull = open("/dev/null", O_WRONLY), full = open("/dev/full", O_WRONLY);
	char line[128];
	size_t len, one;
	struct tp_rec r;

	sink_set_outputs(&devnull, 1, 1);
	rec_line(line, sizeof(line), 0);
	one = strlen(line);
	sink_set_caps(3 * one, 5 * one);

	sink_probe_begin();
	for (int i = 0; i < 10; i++) {
		rec_line(line, sizeof(line), i);
		sink_line(line, strlen(line));
	}
	sink_line("a human line\n", 13);
	is_int(sink_records(), 10, "every record counted");
	is_int(sink_probe_dropped(), 7, "a probe keeps what fits its cap");
	sink_saved(&len);
	is_int(len, 3 * one, "three records kept");

	tp_rec_begin(&r, "error");
	sink_emit(&r);
	is_int(sink_dropped(), 7, "the parent's own record is kept past the cap");

	sink_probe_begin();
	for (int i = 0; i < 10; i++) {
		rec_line(line, sizeof(line), i);
		sink_line(line, strlen(line));
	}
	/* room left in the run: 5 records' worth less 3 records and the parent's shorter one */
	is_int(sink_probe_dropped(), 9, "the run's cap holds across probes");
	is_int(sink_write_error(), 0, "no write error on /dev/null");

	sink_set_outputs(&full, 1, 0);
	sink_line(line, strlen(line));
	is_int(sink_write_error(), 0, "a console (not fatal) that fails is ignored");
	sink_set_outputs(&full, 1, 1);
	sink_line(line, strlen(line));
	ok(sink_write_error() != 0, "stdout of a host run that fails is seen");
	return tap_done();
}
