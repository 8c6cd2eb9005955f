// SPDX-License-Identifier: MIT
/* Files written whole beside their name and renamed over it; see outfile.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

/* A file being written: its stream, its temporary name and the name it is for. */
struct pending {
	FILE *f;
	char *tmp, *path;
	struct pending *next;
};

/* The files open now (a few at most: a chart's .dat and .gp, a page). */
static struct pending *open_files;

/* The mode fopen(path, "w") would have given a new file. */
static mode_t created_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

FILE *outfile_open(const char *path)
{
	struct pending *p = xcalloc(1, sizeof(*p));
	int fd;

	p->path = xstrdup(path);
	p->tmp = xasprintf("%s.XXXXXX", path);
	fd = mkstemp(p->tmp);
	if (fd < 0 || fchmod(fd, created_mode()) || !(p->f = fdopen(fd, "w"))) {
		fprintf(stderr, "report: %s: cannot create a file beside it: %s\n", path,
			strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(p->tmp);
		}
		free(p->tmp);
		free(p->path);
		free(p);
		return NULL;
	}
	p->next = open_files;
	open_files = p;
	return p->f;
}

/* Takes f's entry out of the list; NULL if f is not an outfile's. */
static struct pending *take(FILE *f)
{
	for (struct pending **pp = &open_files; *pp; pp = &(*pp)->next) {
		struct pending *p = *pp;

		if (p->f == f) {
			*pp = p->next;
			return p;
		}
	}
	return NULL;
}

static void forget(struct pending *p)
{
	free(p->tmp);
	free(p->path);
	free(p);
}

int outfile_close(FILE *f)
{
	struct pending *p = take(f);
	int err = 0;

	if (!p)
		return -1;
	errno = 0;
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(p->tmp, p->path))
		err = errno;
	if (err) {
		fprintf(stderr, "report: writing %s: %s\n", p->path, strerror(err));
		unlink(p->tmp);
	}
	forget(p);
	return err ? -1 : 0;
}

void outfile_abort(FILE *f)
{
	struct pending *p = take(f);

	if (!p)
		return;
	fclose(f);
	unlink(p->tmp);
	forget(p);
}
