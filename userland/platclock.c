// SPDX-License-Identifier: MIT
/*
 * Platform counters read from user space (platclock.h):
 *  - CLOCK_MONOTONIC_RAW, the OS's view (not slewed by NTP);
 *  - the HPET main counter, through the kernel's HPET character device
 *    (drivers/char/hpet.c, CONFIG_HPET_MMAP): it maps exactly the register
 *    page, where /dev/mem would expose every page (IA-PC HPET 1.0a, 2.3:
 *    GCAP_ID at 0x000 with the period in fs, main counter at 0x0f0);
 *  - the ACPI PM timer, at the I/O port the FADT names (ACPI 6.5, 5.2.9 and
 *    4.8.3.3: 3.579545 MHz, 24 or 32 bits), through ioperm();
 *  - the PIT's channel 0 (8254), latched and read, for its cost only.
 * The FADT comes from /sys/firmware/acpi/tables/FACP and is parsed by the
 * parser the stub uses too (common/acpi.c), so both ends read it the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#define HAVE_PORTS 1
#else
#define HAVE_PORTS 0
/* never reached (HAVE_PORTS is tested first): no I/O ports here */
#define ioperm(from, num, on) ((void)(from), (void)(num), (void)(on), -1)
#endif

#include "../common/acpi.h"
#include "../common/x86clock.h"
#include "timeutil.h"
#include "platclock.h"

#define FADT_PATH "/sys/firmware/acpi/tables/FACP"
#define HPET_DEV "/dev/hpet"
#define PIT_CH0 0x40
#define PIT_CMD 0x43

static uint64_t read_raw(const struct platclock *r)
{
	return (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
}

static uint64_t read_hpet(const struct platclock *r)
{
	if (r->hpet64)
		return *(volatile const uint64_t *)(r->mmio + HPET_MAIN_COUNTER);
	return *(volatile const uint32_t *)(r->mmio + HPET_MAIN_COUNTER);
}

#if HAVE_PORTS
static uint64_t read_pmtimer(const struct platclock *r)
{
	return inl(r->port);
}

static uint64_t read_pit(const struct platclock *r)
{
	uint8_t lo, hi;

	outb(0x00, PIT_CMD);	/* counter latch command, channel 0 */
	lo = inb(PIT_CH0);
	hi = inb(PIT_CH0);
	return (uint64_t)hi << 8 | lo;
}
#else
static uint64_t read_pmtimer(const struct platclock *r)
{
	return 0;
}

static uint64_t read_pit(const struct platclock *r)
{
	return 0;
}
#endif

static int why(struct platclock *r, const char *fmt, const char *detail)
{
	snprintf(r->why, sizeof(r->why), fmt, detail);
	return -1;
}

/* The counter moves within 2 ms (a stopped HPET reads the same forever). */
static int runs(const struct platclock *r)
{
	uint64_t a = r->read(r);
	int64_t end = mono_ns() + 2 * NS_PER_MS;

	while (mono_ns() < end)
		if (r->read(r) != a)
			return 1;
	return 0;
}

static int open_hpet(struct platclock *r)
{
	int fd = open(HPET_DEV, O_RDONLY | O_CLOEXEC);
	uint64_t gcap;
	uint32_t period;
	void *p;

	if (fd < 0)
		return why(r, HPET_DEV ": %s", strerror(errno));
	p = mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return why(r, "mmap of " HPET_DEV ": %s (kernel without HPET_MMAP, or hpet_mmap=0)",
			   strerror(errno));
	r->mmio = p;
	gcap = *(volatile const uint64_t *)(r->mmio + HPET_GCAP_ID);
	period = tp_hpet_period_fs(gcap);
	if (!tp_hpet_period_valid(period)) {
		char fs[12];

		snprintf(fs, sizeof(fs), "%u", (unsigned int)period);
		return why(r, "HPET period %s fs (GCAP_ID) out of the spec's range", fs);
	}
	r->hz = 1e15 / period;
	r->hpet64 = !!(gcap & HPET_CAP_COUNT_SIZE);
	r->bits = r->hpet64 ? 64 : 32;
	r->read = read_hpet;
	snprintf(r->where, sizeof(r->where), "mmap " HPET_DEV);
	return runs(r) ? 0 : why(r, "HPET main counter %s (not enabled)", "does not move");
}

static int open_pmtimer(struct platclock *r)
{
	static uint8_t fadt[4096];
	struct tp_pm_timer pm;
	const char *bad;
	ssize_t len;
	int fd = open(FADT_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return why(r, FADT_PATH ": %s", strerror(errno));
	len = read(fd, fadt, sizeof(fadt));
	close(fd);
	if (len <= 0)
		return why(r, FADT_PATH ": %s", len < 0 ? strerror(errno) : "empty");
	if (tp_acpi_fadt_pm_timer(fadt, (uint32_t)len, &pm, &bad))
		return why(r, "FADT: %s", bad);
	if (pm.space != ACPI_GAS_IO)
		return why(r, "PM timer in %s, not I/O space: not read", "system memory");
	if (!HAVE_PORTS)
		return why(r, "no I/O ports on this %s", "architecture");
	if (ioperm((unsigned long)pm.address, 4, 1))
		return why(r, "ioperm on the PM timer port: %s", strerror(errno));
	r->port = (uint16_t)pm.address;
	r->hz = ACPI_PM_TIMER_HZ;
	r->bits = pm.bits;
	r->read = read_pmtimer;
	snprintf(r->where, sizeof(r->where), "port 0x%x (FADT %s)", r->port,
		 pm.from_x ? "X_PM_TMR_BLK" : "PM_TMR_BLK");
	return runs(r) ? 0 : why(r, "PM timer %s", "does not move");
}

/* The PIT's channel 0 latched and read (8254 datasheet, counter latch
 * command): for its read cost only; -1 and why if ports are not ours. */
static int open_pit_ports(struct platclock *r)
{
	if (!HAVE_PORTS)
		return why(r, "no I/O ports on this %s", "architecture");
	if (ioperm(PIT_CH0, 4, 1))
		return why(r, "ioperm on the PIT ports 0x40-0x43: %s", strerror(errno));
	return 0;
}

/* A counting-down 16-bit counter the kernel may reprogram: a cost, not a time. */
static int open_pit(struct platclock *r)
{
	if (open_pit_ports(r))
		return -1;
	r->hz = PIT_HZ;
	r->bits = 16;
	r->read = read_pit;
	snprintf(r->where, sizeof(r->where), "ports 0x%x, 0x%x (latch, lo, hi)", PIT_CMD, PIT_CH0);
	return 0;
}

int platclock_open(struct platclock *r)
{
	r->why[0] = r->where[0] = 0;
	if (!strcmp(r->name, "hpet"))
		return open_hpet(r);
	if (!strcmp(r->name, "pmtimer"))
		return open_pmtimer(r);
	if (!strcmp(r->name, "pit"))
		return open_pit(r);
	r->hz = 1e9;
	r->bits = 64;
	r->read = read_raw;
	snprintf(r->where, sizeof(r->where), "clock_gettime");
	return 0;
}
