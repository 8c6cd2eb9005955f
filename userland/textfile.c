// SPDX-License-Identifier: MIT
/* A host run's OpenMetrics textfile, written by tp-report: see textfile.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "textfile.h"

void textfile_report_path(const char *self, char *path, size_t n)
{
	const char *slash = strrchr(self, '/');

	if (slash)
		snprintf(path, n, "%.*s/tp-report", (int)(slash - self), self);
	else
		snprintf(path, n, "tp-report");
}

void textfile_records_name(const char *file, char *path, size_t n)
{
	snprintf(path, n, "%s.records-%d", file, (int)getpid());
}

int textfile_write(const char *self, const char *records, const char *file)
{
	char tool[4096], opt[4200];
	char *argv[] = { tool, opt, "--", (char *)records, NULL };
	int status;
	pid_t pid;

	textfile_report_path(self, tool, sizeof(tool));
	snprintf(opt, sizeof(opt), "--textfile=%s", file);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv(tool, argv);
		execvp("tp-report", argv);
		fprintf(stderr, "timeprobe: run: --openmetrics: cannot run %s: %s (build it with "
			"`make report`)\n", tool, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "timeprobe: run: --openmetrics: cannot run %s: %s\n", tool,
			strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "timeprobe: run: --openmetrics: %s did not write %s (%s %d); "
			"the records are in %s\n", tool, file,
			WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), records);
		return -1;
	}
	return 0;
}
