// SPDX-License-Identifier: MIT
/* A block device's identity from sysfs; see disk.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "disk.h"

const char *disk_sysfs(void)
{
#ifdef USBWRITE_TEST
	/* The test build reads a crafted tree: transports no loop device has. */
	const char *root = getenv("TP_USB_SYSFS");
	if (root && *root)
		return root;
#endif
	return "/sys";
}

/* Keeps printable ASCII only (a model string reaches the terminal) and drops trailing blanks. */
static void printable(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++)
		if (*r >= 0x20 && *r < 0x7f)
			*w++ = *r;
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* dir/rel into path; -ENAMETOOLONG when it does not fit. */
static int join(char path[PATH_MAX], const char *dir, const char *rel)
{
	int n = snprintf(path, PATH_MAX, "%s/%s", dir, rel);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The first line of dir/rel, printable, into buf; 0, or -errno (buf is then ""). */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	if (join(path, dir, rel))
		return -ENAMETOOLONG;
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	printable(buf);
	return 0;
}

static int has_file(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	return !join(path, dir, rel) && access(path, F_OK) == 0;
}

/* The sysfs directory of the device numbered rdev, resolved; 0 or -errno. */
static int rdev_node(dev_t rdev, char node[PATH_MAX])
{
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", disk_sysfs(), major(rdev), minor(rdev));
	return realpath(link, node) ? 0 : -errno;
}

/* The last component of path, cut to len - 1 bytes (a kernel name has at most 31). */
static void base_name(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	size_t n = strnlen(name, len - 1);
	memcpy(out, name, n);
	out[n] = '\0';
}

/* The bus a device hangs on, from the devices it sits under in sysfs. */
static const struct {
	const char *under;
	const char *tran;
} buses[] = {
	{ "/usb", "usb" },	   { "/mmc_host/", "mmc" }, { "/nvme", "nvme" },
	{ "/ata", "sata" },	   { "/virtio", "virtio" }, { "/devices/virtual/", "virtual" },
};

static void transport(const char *node, char *tran, size_t len)
{
	for (size_t i = 0; i < sizeof(buses) / sizeof(buses[0]); i++) {
		if (strstr(node, buses[i].under)) {
			snprintf(tran, len, "%s", buses[i].tran);
			return;
		}
	}
	snprintf(tran, len, "unknown");
}

/*
 * The serial number: the device's own (mmc, nvme), else that of the USB
 * device it sits under (the directory with idVendor), else "".
 */
static void find_serial(struct disk *d)
{
	if (read_attr(d->node, "device/serial", d->serial, sizeof(d->serial)) == 0)
		return;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", d->node);
	for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
		*slash = '\0';
		if (has_file(dir, "idVendor")) {
			read_attr(dir, "serial", d->serial, sizeof(d->serial));
			return;
		}
	}
}

static void read_identity(struct disk *d)
{
	char num[32];
	read_attr(d->node, "device/vendor", d->vendor, sizeof(d->vendor));
	if (read_attr(d->node, "device/model", d->model, sizeof(d->model)) < 0)
		read_attr(d->node, "device/name", d->model, sizeof(d->model));	/* mmc */
	find_serial(d);
	transport(d->node, d->tran, sizeof(d->tran));
	if (!strcmp(d->tran, "mmc"))
		read_attr(d->node, "device/type", d->card_type, sizeof(d->card_type));
	read_attr(d->node, "removable", num, sizeof(num));
	d->removable = !strcmp(num, "1");
	/* size counts 512-byte sectors whatever the block size (linux/blk_types.h, SECTOR_SHIFT) */
	read_attr(d->node, "size", num, sizeof(num));
	char *end;
	errno = 0;
	unsigned long long sectors = strtoull(num, &end, 10);
	d->bytes = (errno || end == num || *end || sectors > UINT64_MAX / 512) ? 0 : sectors * 512;
}

int disk_read(dev_t rdev, struct disk *d)
{
	memset(d, 0, sizeof(*d));
	d->rdev = rdev;
	int err = rdev_node(rdev, d->node);
	if (err)
		return err;
	base_name(d->node, d->name, sizeof(d->name));
	if (has_file(d->node, "partition")) {
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", d->node);
		*strrchr(parent, '/') = '\0';
		base_name(parent, d->whole, sizeof(d->whole));
	}
	read_identity(d);
	return 0;
}

int disk_same(const struct disk *a, const struct disk *b)
{
	return a->rdev == b->rdev && a->bytes == b->bytes && a->removable == b->removable &&
	       !strcmp(a->node, b->node) && !strcmp(a->vendor, b->vendor) &&
	       !strcmp(a->model, b->model) && !strcmp(a->serial, b->serial);
}

/*
 * An mmc disk is never "removable" (drivers/mmc/core/block.c leaves
 * GENHD_FL_REMOVABLE unset: a card is a removable device with permanent
 * media), so its card type tells a card from a chip: SD, or MMC for an eMMC
 * soldered on the board (drivers/mmc/core/bus.c, type_show()).
 */
int disk_is_stick(const struct disk *d)
{
	if (d->removable || !strcmp(d->tran, "usb"))
		return 1;
	return !strcmp(d->tran, "mmc") && !strcmp(d->card_type, "SD");
}

const char *disk_gb(uint64_t bytes, char buf[32])
{
	snprintf(buf, 32, "%.1f", (double)bytes / 1e9);
	return buf;
}

/* Calls fn(dir of partition, name, arg) for each partition under the disk's sysfs node. */
static void for_each_partition(const char *node, void (*fn)(const char *, const char *, void *),
			       void *arg)
{
	DIR *dir = opendir(node);
	if (!dir)
		return;
	for (struct dirent *e; (e = readdir(dir));) {
		char part[PATH_MAX];
		if (e->d_name[0] != '.' && !join(part, node, e->d_name) &&
		    has_file(part, "partition"))
			fn(part, e->d_name, arg);
	}
	closedir(dir);
}

struct listing {
	FILE *out;
	int count;
};

static void print_partition(const char *dir, const char *name, void *arg)
{
	struct listing *l = arg;
	char num[32], gb[32], shown[DISK_TEXT_MAX];
	snprintf(shown, sizeof(shown), "%s", name);
	printable(shown);
	read_attr(dir, "size", num, sizeof(num));
	fprintf(l->out, "    %s  %s GB\n", shown, disk_gb(strtoull(num, NULL, 10) * 512, gb));
	l->count++;
}

void disk_print_partitions(const struct disk *d, FILE *out)
{
	struct listing l = { out, 0 };
	for_each_partition(d->node, print_partition, &l);
	if (!l.count)
		fprintf(out, "    (no partitions)\n");
}

int disk_covers(const struct disk *d, dev_t other)
{
	char node[PATH_MAX];
	if (other == d->rdev)
		return 1;
	if (rdev_node(other, node))
		return 0;
	char *slash = strrchr(node, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return !strcmp(node, d->node);
}

struct holder {
	char *name;
	size_t len;
	int found;
};

/* The first entry of dir/holders/ (Documentation/ABI/testing/sysfs-block), if any. */
static void find_holder(const char *dir, const char *unused, void *arg)
{
	struct holder *h = arg;
	char path[PATH_MAX];
	DIR *holders = h->found || join(path, dir, "holders") ? NULL : opendir(path);
	if (!holders)
		return;
	for (struct dirent *e; !h->found && (e = readdir(holders));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(h->name, h->len, "%s", e->d_name);
		printable(h->name);
		h->found = 1;
	}
	closedir(holders);
}

int disk_holder(const struct disk *d, char *name, size_t len)
{
	struct holder h = { name, len, 0 };
	find_holder(d->node, d->name, &h);
	for_each_partition(d->node, find_holder, &h);
	return h.found;
}
