// SPDX-License-Identifier: MIT
/*
 * tp-usbwrite: writes the appliance's disk image to a USB stick (make usb,
 * README).
 *
 *   tp-usbwrite [--force] IMAGE DEVICE
 *
 * DEVICE is opened once, read-write and exclusively (O_EXCL on a block
 * device: EBUSY while it or a partition of it is mounted, swap, a member of
 * md, LVM/dm, btrfs, ZFS or bcache, or opened so by another program), and
 * everything after that goes through that one descriptor: its device number
 * finds it in sysfs, the checks read that, and the image is written and read
 * back through it. It refuses, and writes nothing, when DEVICE
 *   - is busy as above, or a loop device reads and writes it (a loop
 *     device does not claim its backing device);
 *   - is not a block device, or is a partition rather than the whole disk;
 *   - is read-only, has no medium, or is smaller than IMAGE;
 *   - is neither removable nor on USB nor an SD card   unless --force
 *     (an eMMC, card type MMC, is a fixed disk);
 *   - is larger than 256 GB (no stick a user means to wipe)   unless --force
 *     (which lifts nothing else);
 * or when the user, shown its name, vendor, model, serial, size and
 * partitions, does not type its name back; or when, after the answer, the
 * descriptor's device has another identity or size, or DEVICE no longer
 * names the device that was opened (a link swapped, a stick replugged).
 * Then it writes, fsyncs, drops the device's cached pages (BLKFLSBUF), reads
 * the image's length back through the same descriptor and compares it byte
 * for byte. Exit status: 0 written and verified, 1 refused or failed, 2 bad
 * usage.
 *
 * The test build (-DUSBWRITE_TEST, tests/host/usb.t) reads sysfs from
 * $TP_USB_SYSFS and, with TP_USB_TEST_FLIP=OFFSET, changes one byte after
 * writing, as a failing stick would.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "busy.h"
#include "copy.h"
#include "disk.h"

#define LARGE_BYTES 256000000000ull	/* 256 GB, as sticks are labelled (10^9) */

struct job {
	const char *img_path;
	const char *dev_path;
	int force;
	int check;		/* --check: the device's checks only, no image, nothing written */
	int img;
	uint64_t img_bytes;
	int dev;		/* the one descriptor of the device */
	dev_t rdev;
	uint64_t dev_bytes;	/* BLKGETSIZE64 of dev */
	struct disk disk;	/* sysfs of rdev when it was checked */
};

static const struct job *the_job;	/* for refuse(): the device's name */

static void say(FILE *f, const char *fmt, va_list ap)
{
	fputs("usbwrite: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

/* A failure: one line on stderr, exit 1. */
static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

/* A refusal before anything was written: one line naming the device, exit 1. */
static void __attribute__((noreturn, format(printf, 1, 2))) refuse(const char *fmt, ...)
{
	char why[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "usbwrite: refusing %s: %s; nothing was written\n", the_job->dev_path, why);
	exit(1);
}

static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(stdout, fmt, ap);
	va_end(ap);
}

static void open_image(struct job *j)
{
	struct stat st;
	j->img = open(j->img_path, O_RDONLY | O_CLOEXEC);
	if (j->img < 0 || fstat(j->img, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		fail("no image %s (make image)", j->img_path);
	j->img_bytes = (uint64_t)st.st_size;
}

/* Why the exclusive open of a block device failed, as a refusal. */
static void __attribute__((noreturn)) refuse_open(const struct job *j, dev_t rdev, int err)
{
	struct disk d;
	char why[512];
	if (err == EBUSY) {
		if (disk_read(rdev, &d))
			refuse("it is in use (%s)", strerror(err));
		busy_reason(&d, why, sizeof(why));
		refuse("it is in use: %s", why);
	}
	/* root refused too: a lockdown, an LSM or a container's device rules, not sudo */
	if ((err == EACCES || err == EPERM) && geteuid() == 0)
		refuse("root may not open it for writing either (%s): a kernel lockdown, a "
		       "security module or a container's device rules forbid it", strerror(err));
	if (err == EACCES || err == EPERM)
		refuse("no permission to open it for writing (run as root: sudo make usb DEV=%s)",
		       j->dev_path);
	if (err == EROFS)
		refuse("it is read-only (a write-protect switch?)");
	if (err == ENOMEDIUM || err == ENXIO)
		refuse("it has no medium");
	refuse("cannot open it: %s", strerror(err));
}

/*
 * The one open, read-write and exclusive, of what DEVICE names now: first a
 * path-only descriptor (O_PATH opens no driver), then, if that is a block
 * device, the same inode through /proc/self/fd, so that nothing else (a
 * watchdog, a tape) is ever opened, even if the name changes in between.
 */
static void open_device(struct job *j)
{
	struct stat st;
	char self[64];
	int path_fd = open(j->dev_path, O_PATH | O_CLOEXEC);
	if (path_fd < 0)
		refuse("no such device (%s)", strerror(errno));
	if (fstat(path_fd, &st) || !S_ISBLK(st.st_mode))
		refuse("not a block device (a disk is /dev/sdX; lsblk lists them)");
	snprintf(self, sizeof(self), "/proc/self/fd/%d", path_fd);
	j->dev = open(self, O_RDWR | O_EXCL | O_CLOEXEC | O_NOCTTY);
	if (j->dev < 0)
		refuse_open(j, st.st_rdev, errno);
	close(path_fd);
	j->rdev = st.st_rdev;
}

/* What the descriptor says: its device's size, 0 when it cannot say. */
static uint64_t descriptor_bytes(int dev)
{
	uint64_t bytes;
	return ioctl(dev, BLKGETSIZE64, &bytes) ? 0 : bytes;
}

static void check_what_it_is(struct job *j)
{
	struct disk *d = &j->disk;
	char why[512];
	int ro = 0;
	if (disk_read(j->rdev, d))
		refuse("the kernel lists no block device %u:%u in %s/dev/block", major(j->rdev),
		       minor(j->rdev), disk_sysfs());
	if (busy_loop_over(d, why, sizeof(why)))
		refuse("it is in use: %s", why);
	if (d->whole[0])
		refuse("it is a partition, not a whole disk (write to the disk, /dev/%s)", d->whole);
	if (ioctl(j->dev, BLKROGET, &ro) || ro)
		refuse("it is read-only (a write-protect switch?)");
	j->dev_bytes = descriptor_bytes(j->dev);
}

/*
 * Sizes: the smaller of what sysfs and the descriptor say must hold the
 * image, the larger decides "large" (they agree, but for a crafted sysfs).
 */
static void check_size(const struct job *j)
{
	uint64_t sys = j->disk.bytes, fd = j->dev_bytes;
	uint64_t small = sys < fd ? sys : fd, large = sys > fd ? sys : fd;
	char gb[32];
	if (!small)
		refuse("it has no medium (size 0)");
	if (small < j->img_bytes)
		refuse("it holds %llu bytes, the image needs %llu", (unsigned long long)small,
		       (unsigned long long)j->img_bytes);
	if (large > LARGE_BYTES && !j->force)
		refuse("it is %s GB, larger than any stick we expect (256 GB); "
		       "--force (make usb USB_FORCE=1) if you mean it",
		       disk_gb(large, gb));
}

static void check_stick(const struct job *j)
{
	const struct disk *d = &j->disk;
	if (disk_is_stick(d) || j->force)
		return;
	refuse("it is neither removable nor on USB nor an SD card (transport '%s%s%s'): "
	       "a fixed disk? --force (make usb USB_FORCE=1) if you mean it",
	       d->tran, d->card_type[0] ? ", card type " : "", d->card_type);
}

/* The answer as shown in a refusal: anything unprintable as '?'. */
static void printable_answer(char *s)
{
	s[strcspn(s, "\n")] = '\0';
	for (char *c = s; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			*c = '?';
}

/* Shows the device and asks for its name back; anything else stops here. */
static void confirm(const struct job *j)
{
	const struct disk *d = &j->disk;
	char gb[32], answer[4096] = "", dev_name[DISK_TEXT_MAX + 8];
	note("%s (%s, %u:%u): %s %s, serial %s, %s GB (%llu bytes), transport %s, now holding:",
	     j->dev_path, d->name, major(j->rdev), minor(j->rdev), d->vendor[0] ? d->vendor : "?",
	     d->model[0] ? d->model : "?", d->serial[0] ? d->serial : "none",
	     disk_gb(d->bytes, gb), (unsigned long long)d->bytes, d->tran);
	disk_print_partitions(d, stdout);
	note("everything on %s will be replaced by %s (%llu bytes).", j->dev_path, j->img_path,
	     (unsigned long long)j->img_bytes);
	printf("usbwrite: type the device name (%s) to go on: ", d->name);
	fflush(stdout);
	if (!fgets(answer, sizeof(answer), stdin))
		answer[0] = '\0';
	printable_answer(answer);
	if (!isatty(STDIN_FILENO))
		printf("%s\n", answer);	/* a piped answer shows as if typed */
	snprintf(dev_name, sizeof(dev_name), "/dev/%s", d->name);
	if (strcmp(answer, d->name) && strcmp(answer, j->dev_path) && strcmp(answer, dev_name))
		refuse("the answer was '%s', not '%s'", answer, d->name);
}

/*
 * After the prompt: the descriptor's device has the identity and size it had
 * when checked, and the path the user named still names that device.
 */
static void recheck(const struct job *j)
{
	struct disk now;
	struct stat st;
	if (disk_read(j->rdev, &now) || !disk_same(&now, &j->disk) ||
	    descriptor_bytes(j->dev) != j->dev_bytes)
		refuse("%u:%u is not the device it was before the prompt (unplugged? replaced?)",
		       major(j->rdev), minor(j->rdev));
	if (stat(j->dev_path, &st))
		refuse("it is gone (%s): something changed during the prompt", strerror(errno));
	if (!S_ISBLK(st.st_mode) || st.st_rdev != j->rdev)
		refuse("it now names %s %u:%u, not %u:%u which was checked: something changed "
		       "during the prompt",
		       S_ISBLK(st.st_mode) ? "device" : "a non-device", major(st.st_rdev),
		       minor(st.st_rdev), major(j->rdev), minor(j->rdev));
}

#ifdef USBWRITE_TEST
/* TP_USB_TEST_FLIP=OFFSET: one byte inverted after writing, as a failing stick would. */
static void test_flip(const struct job *j)
{
	const char *at = getenv("TP_USB_TEST_FLIP");
	unsigned char byte;
	off_t off = at && *at ? (off_t)strtoull(at, NULL, 10) : -1;
	if (off < 0)
		return;
	if (pread(j->dev, &byte, 1, off) != 1)
		fail("TP_USB_TEST_FLIP=%s: %s", at, strerror(errno));
	byte = (unsigned char)~byte;
	if (pwrite(j->dev, &byte, 1, off) != 1)
		fail("TP_USB_TEST_FLIP=%s: %s", at, strerror(errno));
}
#else
static void test_flip(const struct job *j)
{
}
#endif

static void write_image(const struct job *j)
{
	uint64_t done;
	note("writing %s to %s (%s)", j->img_path, j->dev_path, j->disk.name);
	int err = copy_write(j->img, j->dev, j->img_bytes, &done);
	if (!err && fsync(j->dev))
		err = -errno;
	if (err)
		fail("writing %s failed at byte %llu: %s; the stick holds a partial image",
		     j->dev_path, (unsigned long long)done, strerror(-err));
	note("written %llu bytes and synced", (unsigned long long)done);
	test_flip(j);
}

/*
 * Reads back what the device holds, not the page cache: BLKFLSBUF writes out
 * and drops the device's cached pages, fadvise drops what is left.
 */
static void verify(const struct job *j)
{
	uint64_t at = 0;
	if (fsync(j->dev) || ioctl(j->dev, BLKFLSBUF, 0))
		note("could not drop %s's cache (%s); the read-back may come from memory",
		     j->dev_path, strerror(errno));
	posix_fadvise(j->dev, 0, 0, POSIX_FADV_DONTNEED);
	int ret = copy_verify(j->img, j->dev, j->img_bytes, &at);
	if (ret < 0)
		fail("reading %s back failed: %s", j->dev_path, strerror(-ret));
	if (ret)
		fail("read-back differs from the image at byte %llu: the stick is failing or "
		     "smaller than it claims; try another one",
		     (unsigned long long)at);
	note("read %llu bytes back through the same descriptor: equal to the image",
	     (unsigned long long)j->img_bytes);
	ioctl(j->dev, BLKRRPART, 0);	/* the new partition table; a failure is harmless */
}

static void next_steps(const struct job *j)
{
	note("%s written and verified.", j->dev_path);
	fputs("Next:\n"
	      "  1. Remove the stick (if the desktop mounted it meanwhile, eject it first).\n"
	      "  2. On the machine to measure: boot it from the stick in UEFI mode (the\n"
	      "     firmware's boot menu, often F12, F11, F8 or Esc); Secure Boot off, or\n"
	      "     see docs/secureboot.md.\n"
	      "  3. Watch the screen, or read the serial console (115200 8N1, null-modem\n"
	      "     cable): picocom -b 115200 /dev/ttyUSB0 --logfile run.log\n"
	      "  4. The machine powers off when done. Results are on the stick in\n"
	      "     \\timeprobe\\results\\; compare them with build/timeprobe report FILE...\n"
	      "  The options are in \\EFI\\timeprobe\\cmdline.txt on the stick (README, Options).\n",
	      stdout);
}

static void usage(void)
{
	fputs("usage: tp-usbwrite [--force] IMAGE DEVICE\n"
	      "       tp-usbwrite [--force] --check DEVICE\n", stderr);
	exit(2);
}

/* --check: DEVICE refused or passed before make builds an image for it; the
 * whole check is made again, with the image, before writing. */
static int check_only(struct job *j)
{
	open_device(j);
	check_what_it_is(j);
	check_size(j);
	check_stick(j);
	note("%s may be written (checked again with the image before writing)", j->dev_path);
	return 0;
}

int main(int argc, char **argv)
{
	struct job j = { .img = -1, .dev = -1 };
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--force"))
			j.force = 1;
		else if (!strcmp(argv[i], "--check"))
			j.check = 1;
		else {
			fprintf(stderr, "usbwrite: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (j.check && argc - i == 1) {
		j.dev_path = argv[i];
		the_job = &j;
		return check_only(&j);
	}
	if (j.check || argc - i != 2)
		usage();
	j.img_path = argv[i];
	j.dev_path = argv[i + 1];
	the_job = &j;
	open_image(&j);
	open_device(&j);
	check_what_it_is(&j);
	check_size(&j);
	check_stick(&j);
	confirm(&j);
	recheck(&j);
	write_image(&j);
	verify(&j);
	next_steps(&j);
	return 0;
}
