// SPDX-License-Identifier: MIT
/*
 * The results file's name, NNNN-<machine id>.tp1: the next sequence number
 * over every entry of the directory (however many runs it holds), and a
 * rename that never replaces a file already there (renameat2(2)
 * RENAME_NOREPLACE, which vfat supports): on EEXIST the next number is tried.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "save.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)	/* include/uapi/linux/fs.h */
#endif
#define SEQ_MAX 99999999u
#define RENAME_TRIES 1000

unsigned seqfile_sequence_of(const char *name)
{
	char *end;
	unsigned long v = strtoul(name, &end, 10);

	return end != name && *end == '-' && v <= SEQ_MAX ? (unsigned)v : 0;
}

unsigned seqfile_next(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned max = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		unsigned v = seqfile_sequence_of(e->d_name);

		if (v > max)
			max = v;
	}
	closedir(d);
	return max < SEQ_MAX ? max + 1 : SEQ_MAX;
}

int seqfile_rename(const char *dir, const char *tmp, const char *id, unsigned seq,
		       char *name, size_t len)
{
	char final[600];

	for (int i = 0; i < RENAME_TRIES && seq <= SEQ_MAX; i++, seq++) {
		snprintf(name, len, "%04u-%s.tp1", seq, id);
		snprintf(final, sizeof(final), "%s/%s", dir, name);
		if (!syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, final, RENAME_NOREPLACE))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}
