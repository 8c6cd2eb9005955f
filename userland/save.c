// SPDX-License-Identifier: MIT
/*
 * Saving results: find the one partition named by the user
 * (timeprobe.save_to) or by the stub (the bootpart of its file, stub.tp1, and then only
 * when its \timeprobe\id says this image made it), mount it as vfat, write
 * every record to
 * /timeprobe/results/<sequence>-<machine id>.tp1 through a temporary name,
 * fsync, rename, fsync the directory, unmount. A new name every run.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "save.h"
#include "sink.h"
#include "sysinfo.h"
#include "timeutil.h"

#define MNT "/mnt"
#define RESULTS_DIR MNT "/timeprobe/results"
/* USB sticks behind xHCI take a few seconds to be enumerated after boot. */
#define WAIT_FOR_DEVICE_S 15

/*
 * Finds the partition whose PARTUUID is want. Linux 6.1 does not show
 * PARTUUID in sysfs (libblkid reads it from the table), so read each whole
 * disk's GPT or MBR here, then name the partition by its number.
 */
static int disk_partition(const char *disk, const char *want)
{
	char path[300], bs[32];
	uint8_t s0[4096], hdr[4096], *entries;
	struct gpt_layout l;
	size_t sz, elen;
	int fd, part = 0;

	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/logical_block_size", disk);
	sz = sysinfo_read_text(path, bs, sizeof(bs)) > 0 ? (size_t)atoi(bs) : 512;
	if (sz < 512 || sz > sizeof(hdr))
		return 0;
	snprintf(path, sizeof(path), "/dev/%s", disk);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, s0, sz, 0) != (ssize_t)sz || pread(fd, hdr, sz, (off_t)sz) != (ssize_t)sz) {
		close(fd);
		return 0;
	}
	if (!bootpart_gpt_header_parse(hdr, sz, &l)) {
		elen = (size_t)l.nentries * l.entry_size;
		entries = malloc(elen);
		if (entries && pread(fd, entries, elen, (off_t)(l.entries_lba * sz)) == (ssize_t)elen)
			part = bootpart_gpt_find(entries, &l, want);
		free(entries);
	} else {
		part = bootpart_mbr_matches(s0, want);
	}
	close(fd);
	return part;
}

/* 1 if /sys/class/block/NAME is a partition (it has a "partition" file). */
static int is_partition(const char *name)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	return !stat(path, &st);
}

/* Names partition PART of DISK: the child whose "partition" file says PART. */
static int partition_child(const char *disk, int part, char *dev, size_t len)
{
	char path[600], num[16];
	struct dirent *pe;
	int found = 0;
	DIR *pd;

	snprintf(path, sizeof(path), "/sys/class/block/%s", disk);
	pd = opendir(path);
	while (pd && !found && (pe = readdir(pd))) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/%s/partition", disk, pe->d_name);
		if (sysinfo_read_text(path, num, sizeof(num)) > 0 && atoi(num) == part) {
			snprintf(dev, len, "/dev/%s", pe->d_name);
			found = 1;
		}
	}
	if (pd)
		closedir(pd);
	return found;
}

/*
 * Every partition whose PARTUUID is want, on every disk: returns how many
 * and names the first in dev. Two or more is a refusal (a copied image), not
 * a choice.
 */
static int find_partitions(const char *want, char *dev, size_t len)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	char other[300];
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		int part;

		if (e->d_name[0] == '.' || is_partition(e->d_name))
			continue;	/* we read the tables of whole disks */
		part = disk_partition(e->d_name, want);
		if (part && partition_child(e->d_name, part, found ? other : dev,
					    found ? sizeof(other) : len))
			found++;
	}
	closedir(d);
	return found;
}

/* Waits for the partition (USB sticks take seconds to appear); how many match. */
static int wait_for_partition(const char *want, char *dev, size_t len)
{
	int found = 0;

	for (int i = 0; i < WAIT_FOR_DEVICE_S * 10 && !found; i++) {
		found = find_partitions(want, dev, len);
		if (!found)
			usleep(100000);
	}
	return found;
}

/*
 * Mounts dev read-only and, unless the user named it, checks that its
 * \timeprobe\id names the partition (the image maker wrote it,
 * tools/image-ids.sh); then remounts it read-write. NULL, or why not (dev
 * is then left unmounted).
 */
static const char *mount_target(const char *dev, const struct save_target *t)
{
	char id[128];
	int n;

	if (mount(dev, MNT, "vfat", MS_RDONLY, 0))
		return "it is not a FAT file system we can mount";
	if (!t->named) {
		n = sysinfo_read_text(MNT "/timeprobe/id", id, sizeof(id));
		if (n <= 0 || !bootpart_image_id_matches(id, (size_t)n, t->partuuid)) {
			umount(MNT);
			return n <= 0 ? "it has no \\timeprobe\\id, so no timeprobe image made it (a "
					"timeprobe.efi on another system's ESP?); name a partition with "
					"timeprobe.save_to=gpt:<PARTUUID>"
				      : "its \\timeprobe\\id names another partition (a copied image?)";
		}
	}
	if (mount(dev, MNT, "vfat", MS_REMOUNT, 0)) {
		umount(MNT);
		return "it cannot be mounted read-write";
	}
	return 0;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	sink_line(line, (size_t)n);
}

/* Writes TMP, then renames it to the next free NNNN-ID.tp1 (its name to name). */
static int write_file(const char *tmp, const char *id, char *name, size_t namelen,
		      const char *data, size_t len)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t done = 0;
	int rc;

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0) {
			int e = errno;

			close(fd);
			unlink(tmp);
			return -e;
		}
		done += (size_t)w;
	}
	if (fsync(fd) || close(fd)) {
		unlink(tmp);
		return -errno;
	}
	if ((rc = seqfile_rename(RESULTS_DIR, tmp, id, seqfile_next(RESULTS_DIR), name, namelen))) {
		unlink(tmp);
		return rc;
	}
	fd = open(RESULTS_DIR, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

void save_results(const struct options *o, const struct stub_handoff *st)
{
	char dev[300] = "", id[64], name[128] = "";
	struct save_target t;
	const char *why = bootpart_save_where(o, st, &t);
	int found, rc;
	size_t len;
	const char *saved = sink_saved(&len);

	if (why) {
		say("timeprobe: results not saved: %s; the console output above is complete", why);
		return;
	}
	mkdir(MNT, 0755);
	found = wait_for_partition(t.partuuid, dev, sizeof(dev));
	if (found != 1) {
		say("timeprobe: results not saved: %s PARTUUID=%s; the console output above is complete",
		    found ? "more than one partition has" : "no partition has", t.partuuid);
		return;
	}
	if ((why = mount_target(dev, &t))) {
		say("timeprobe: results not saved on %s: %s", dev, why);
		return;
	}
	mkdir(MNT "/timeprobe", 0755);
	mkdir(RESULTS_DIR, 0755);
	sysinfo_machine_id(id, sizeof(id));
	rc = write_file(RESULTS_DIR "/writing.tmp", id, name, sizeof(name), saved, len);
	if (rc)
		say("timeprobe: results not saved: writing %s on %s: %s", RESULTS_DIR + strlen(MNT),
		    dev, strerror(-rc));
	if (umount(MNT))
		say("timeprobe: unmounting %s: %s", dev, strerror(errno));
	else if (!rc)
		say("timeprobe: results saved to \\timeprobe\\results\\%s on %s (%zu bytes)", name, dev, len);
}
