// SPDX-License-Identifier: MIT
/*
 * The fingerprint's pure parts (userland/fingerprint.c, kconfig.c) on recorded inputs:
 * CPUID signatures of real CPUs, a /proc/cpuinfo block from a KVM guest,
 * the build's kconfig word, a Debian kernel's .config excerpt.
 */
#include <string.h>

#include "../../userland/fingerprint.h"
#include "../../userland/kconfig.h"
#include "../../userland/sysinfo.h"
#include "tap.h"

/* The first CPU of /proc/cpuinfo in a KVM guest (Linux 6.18), flags cut. */
static const char cpuinfo_kvm[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 167\n"
	"model name\t: Intel(R) Xeon(R) Processor\n"
	"stepping\t: 1\n"
	"microcode\t: 0x1\n"
	"cpu MHz\t\t: 2600.000\n"
	"flags\t\t: fpu vme tsc msr rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni\n"
	"bugs\t\t: spectre_v1 spectre_v2\n"
	"\n"
	"processor\t: 1\n"
	"microcode\t: 0x2\n";

/* QEMU TCG prints no microcode line: the kernel read revision 0. */
static const char cpuinfo_tcg[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"cpu family\t: 15\n"
	"model\t\t: 107\n"
	"model name\t: QEMU TCG CPU version 2.5+\n"
	"stepping\t: 1\n"
	"flags\t\t: fpu de pse tsc msr pae mce cx8 apic sep hypervisor lahf_lm\n";

static void test_signature(void)
{
	struct fingerprint_signature s;

	fingerprint_signature(0x000a0671, &s);	/* Ice Lake server, as the guest above */
	ok(s.family == 6 && s.model == 167 && s.stepping == 1, "family 6: extended model counts (6/167/1)");
	fingerprint_signature(0x00a20f10, &s);	/* AMD Zen 3 */
	ok(s.family == 0x19 && s.model == 0x21 && s.stepping == 0, "family 15+: extended family and model (0x19/0x21/0)");
	fingerprint_signature(0x00060fb1, &s);	/* QEMU's qemu64 */
	ok(s.family == 15 && s.model == 107 && s.stepping == 1, "family 15: 15/107/1");
	fingerprint_signature(0x00010543, &s);	/* family 5: the extended model is not used */
	ok(s.family == 5 && s.model == 4 && s.stepping == 3, "family 5: extended model ignored");
}

static void test_cpuinfo(void)
{
	char b[256];

	ok(sysinfo_cpuinfo_value(cpuinfo_kvm, "model", b, sizeof(b)) && !strcmp(b, "167"),
	   "\"model\" is not \"model name\"");
	ok(sysinfo_cpuinfo_value(cpuinfo_kvm, "model name", b, sizeof(b)) &&
	   !strcmp(b, "Intel(R) Xeon(R) Processor"), "model name");
	ok(sysinfo_cpuinfo_value(cpuinfo_kvm, "microcode", b, sizeof(b)) && !strcmp(b, "0x1"),
	   "microcode of the first CPU");
	ok(!sysinfo_cpuinfo_value(cpuinfo_tcg, "microcode", b, sizeof(b)) && !b[0],
	   "no microcode line (TCG): not found, empty");
	ok(sysinfo_cpuinfo_value(cpuinfo_kvm, "flags", b, sizeof(b)), "flags found");
	ok(sysinfo_word_in_list(b, "constant_tsc") && sysinfo_word_in_list(b, "nonstop_tsc") &&
	   sysinfo_word_in_list(b, "tsc_known_freq"), "constant_tsc, nonstop_tsc, tsc_known_freq set");
	ok(!sysinfo_word_in_list(b, "tsc_reliable") && !sysinfo_word_in_list(b, "tsc"  "_deadline_timer"),
	   "tsc_reliable not set");
	ok(sysinfo_word_in_list(b, "tsc") && !sysinfo_word_in_list(b, "constant"), "whole words only");
	ok(!sysinfo_word_in_list(b, ""), "an empty word is in no list");
	ok(!sysinfo_cpuinfo_value("", "flags", b, sizeof(b)), "empty text");
}

static void test_kconfig(void)
{
	char b[32];

	ok(kconfig_word("hz:250,preempt:none,nohz:idle", "hz", b, sizeof(b)) && !strcmp(b, "250"), "hz:250");
	ok(kconfig_word("hz:250,preempt:none,nohz:idle", "preempt", b, sizeof(b)) && !strcmp(b, "none"),
	   "preempt:none");
	ok(kconfig_word("hz:250,preempt:none,nohz:idle", "nohz", b, sizeof(b)) && !strcmp(b, "idle"),
	   "the last word");
	ok(!kconfig_word("hzz:1,preempt:full", "hz", b, sizeof(b)), "a longer key is not hz");
	ok(!kconfig_word("", "hz", b, sizeof(b)) && !b[0], "no word");
}

/* Debian's 6.1 amd64 .config, the lines that matter. */
static const char config_debian[] =
	"# CONFIG_PREEMPT_NONE is not set\n"
	"CONFIG_PREEMPT_VOLUNTARY=y\n"
	"# CONFIG_PREEMPT is not set\n"
	"CONFIG_PREEMPT_COUNT=y\n"
	"CONFIG_PREEMPT_DYNAMIC=y\n"
	"CONFIG_HZ_250=y\n"
	"CONFIG_HZ=250\n";

static void test_config(void)
{
	const char *m = 0;
	int hz = 0;

	ok(kconfig_hz(config_debian, &hz) && hz == 250, "CONFIG_HZ=250, not CONFIG_HZ_250");
	ok(kconfig_preempt(config_debian, &m) && !strcmp(m, "dynamic"),
	   "PREEMPT_DYNAMIC wins over the VOLUNTARY default it boots with");
	ok(kconfig_preempt("CONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT is not set\n", &m) &&
	   !strcmp(m, "none"), "none");
	ok(kconfig_preempt("CONFIG_PREEMPT=y\nCONFIG_PREEMPT_COUNT=y\n", &m) && !strcmp(m, "full"),
	   "full; PREEMPT_COUNT is not PREEMPT");
	ok(!kconfig_preempt("CONFIG_HZ=100\n", &m), "no preemption line: not found");
	ok(!kconfig_hz("# CONFIG_HZ is not set\n", &hz), "no CONFIG_HZ: not found");
}

/* A 6.18 kernel's /proc/config.gz, decompressed: the lines that matter.
 * CONFIG_PREEMPT_NONE=y beside PREEMPT_DYNAMIC: the boot chooses, dynamic. */
static const char config_proc[] =
	"# CONFIG_HZ_PERIODIC is not set\n"
	"CONFIG_PREEMPT_BUILD=y\n"
	"CONFIG_PREEMPT_NONE=y\n"
	"# CONFIG_PREEMPT_VOLUNTARY is not set\n"
	"# CONFIG_PREEMPT is not set\n"
	"# CONFIG_PREEMPT_LAZY is not set\n"
	"CONFIG_PREEMPT_COUNT=y\n"
	"CONFIG_PREEMPTION=y\n"
	"CONFIG_PREEMPT_DYNAMIC=y\n"
	"CONFIG_HZ_250=y\n"
	"# CONFIG_HZ_1000 is not set\n"
	"CONFIG_HZ=250\n";

static void test_proc_config_and_derived_hz(void)
{
	const char *m = 0;
	int hz = 0;

	ok(kconfig_hz(config_proc, &hz) && hz == 250, "/proc/config.gz text: CONFIG_HZ=250");
	ok(kconfig_preempt(config_proc, &m) && !strcmp(m, "dynamic"),
	   "/proc/config.gz text: PREEMPT_DYNAMIC over PREEMPT_NONE=y: dynamic");
	ok(fingerprint_hz_from_res(4000000, &hz) && hz == 250, "4 ms coarse resolution: HZ 250");
	ok(fingerprint_hz_from_res(3333333, &hz) && hz == 300, "3.333333 ms: HZ 300");
	ok(fingerprint_hz_from_res(1000000, &hz) && hz == 1000, "1 ms: HZ 1000");
	ok(fingerprint_hz_from_res(10000000, &hz) && hz == 100, "10 ms: HZ 100");
	ok(!fingerprint_hz_from_res(1, &hz), "1 ns (a high-resolution clock's): no tick");
	ok(!fingerprint_hz_from_res(0, &hz) && !fingerprint_hz_from_res(-4000000, &hz), "0 or negative: none");
	ok(!fingerprint_hz_from_res(1000000000, &hz), "1 s: no HZ the kernel allows");
}

int main(void)
{
	test_signature();
	test_cpuinfo();
	test_kconfig();
	test_config();
	test_proc_config_and_derived_hz();
	return tap_done();
}
