// SPDX-License-Identifier: MIT
/* Why a block device is busy; see busy.h. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "busy.h"

/*
 * Undoes the octal escapes of /proc/self/mountinfo and /proc/swaps
 * (fs/proc_namespace.c, mangle: space, tab, newline, backslash as \ooo),
 * then shows anything unprintable as '?'.
 */
static void unescape(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0'));
			r += 3;
		} else {
			*w = *r;
		}
		if (*w < 0x20 || *w == 0x7f)
			*w = '?';
		w++;
	}
	*w = '\0';
}

/* 1 when the block device at path is d or one of its partitions. */
static int path_on_disk(const struct disk *d, const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) && disk_covers(d, st.st_rdev);
}

/*
 * A mountinfo line (man 5 proc_pid_mountinfo): ID PARENT MAJ:MIN ROOT POINT
 * OPTIONS [TAGS...] - FSTYPE SOURCE SUPEROPTS. Fills point and source and
 * returns 1 when the mount is on d (by number, or by its source: btrfs shows
 * a number of its own).
 */
static int mount_on_disk(const struct disk *d, char *line, char **point, char **source)
{
	unsigned maj, min;
	char *save, *field[5] = { 0 };
	field[0] = strtok_r(line, " \n", &save);
	for (int i = 1; i < 5 && field[i - 1]; i++)
		field[i] = strtok_r(NULL, " \n", &save);
	char *dash = strstr(save ? save : "", " - ");
	if (!field[4] || !dash || sscanf(field[2], "%u:%u", &maj, &min) != 2)
		return 0;
	strtok_r(dash + 3, " \n", &save);	/* the fs type */
	*source = strtok_r(NULL, " \n", &save);
	*point = field[4];
	if (!*source)
		return 0;
	unescape(*point);
	unescape(*source);
	return disk_covers(d, makedev(maj, min)) || path_on_disk(d, *source);
}

/* The mount on d, "/" first; 1 when there is one. */
static int find_mount(const struct disk *d, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192];
	int found = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *point, *source;
		if (!mount_on_disk(d, line, &point, &source))
			continue;
		if (!strcmp(point, "/")) {
			snprintf(buf, len, "it holds the running root (/ is on %s)", source);
			found = 2;
			break;
		}
		if (!found)
			snprintf(buf, len, "%s is mounted on %s (umount it first)", source, point);
		found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static int find_swap(const struct disk *d, char *buf, size_t len)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[8192], path[4096];
	int found = 0;
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", path) != 1)
			continue;
		unescape(path);
		found = path_on_disk(d, path);
		if (found)
			snprintf(buf, len, "%s is in use as swap (swapoff it first)", path);
	}
	if (f)
		fclose(f);
	return found;
}

void busy_reason(const struct disk *d, char *buf, size_t len)
{
	char holder[DISK_TEXT_MAX];
	if (find_mount(d, buf, len) || find_swap(d, buf, len))
		return;
	if (disk_holder(d, holder, sizeof(holder))) {
		snprintf(buf, len, "%s is built on it (LVM, RAID, encryption, bcache); stop that first",
			 holder);
		return;
	}
	snprintf(buf, len, "another program holds it open exclusively (a ZFS pool, a btrfs of "
			   "several devices, another writer?)");
}

int busy_loop_over(const struct disk *d, char *buf, size_t len)
{
	char dir[PATH_MAX], backing[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/class/block", disk_sysfs());
	DIR *all = opendir(dir);
	int found = 0;
	for (struct dirent *e; all && !found && (e = readdir(all));) {
		char attr[PATH_MAX + 300];
		snprintf(attr, sizeof(attr), "%s/%s/loop/backing_file", dir, e->d_name);
		FILE *f = e->d_name[0] == '.' ? NULL : fopen(attr, "re");
		if (!f)
			continue;
		if (fgets(backing, sizeof(backing), f)) {
			backing[strcspn(backing, "\n")] = '\0';
			found = path_on_disk(d, backing);
		}
		fclose(f);
		if (found)
			snprintf(buf, len, "/dev/%.64s is a loop device over it (losetup -d it first)",
				 e->d_name);
	}
	if (all)
		closedir(all);
	return found;
}
