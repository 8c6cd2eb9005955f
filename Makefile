# SPDX-License-Identifier: MIT
# timeprobe: one Makefile for the appliance, the host tools and the tests.
#
#   make run        build everything and boot the appliance in QEMU
#   make test       unit, host and build tests and the quick QEMU boot tests
#   make test-all   the above plus the slow checks
#   make bench      side-by-side benchmarks on this host (docs/benchmarks.md)
#   make install    timeprobe, tp-report and their pages (PREFIX=, DESTDIR=); make deb (tools/install.mk)
#
# Overrides: KERNEL_IMAGE=<bzImage> (use a prebuilt kernel; KERNEL_IMAGE_ARM64
# for image-arm64), KERNEL_SRC=<dir>
# (build another tree with our fragment), KVARIANT=<name> (kernel/variants/),
# QEMU_MACHINE=q35|pc, APPEND="timeprobe.profile=quick ..." (added to cmdline.txt),
# ACCEL=auto|kvm|tcg (tools/accel.sh), PROFILE=quick|full (make run),
# FAIL_ON=poor|fair|unsafe (make run: exit 4 when the verdict reaches it),
# ARCH=x86|arm64 (the appliance's architecture; docs/arm64.md).
# Local settings may go in config.mak (not tracked).

-include config.mak

# ---- the architecture: everything that differs between x86 and arm64 ----
# arm64 builds go to build/arm64 beside the x86 build in build/; its
# scripts (kernel/build.sh, tools/accel.sh, tools/qemu-run.sh) read ARCH.
ARCH ?= x86
override ARCH := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(ARCH)))
export ARCH
ifeq ($(ARCH),arm64)
B := build/arm64
MUSL_CC ?= aarch64-linux-musl-gcc
CROSS := aarch64-linux-gnu-
MUSL_UAPI_SRC := /usr/aarch64-linux-gnu/include
MUSL_UAPI_ASM := /usr/aarch64-linux-gnu/include/asm
BOOT_EFI_NAME := BOOTAA64.EFI
CMDLINE_TXT := tools/cmdline-arm64.txt
QEMU_MACHINE ?= virt
else ifeq ($(ARCH),x86)
B := build
MUSL_CC ?= musl-gcc
CROSS :=
MUSL_UAPI_SRC := /usr/include
MUSL_UAPI_ASM := /usr/include/x86_64-linux-gnu/asm
BOOT_EFI_NAME := BOOTX64.EFI
CMDLINE_TXT := tools/cmdline.txt
else
$(error ARCH=$(ARCH): x86 or arm64)
endif
BOOT_EFI := $(B)/boot/$(BOOT_EFI_NAME)

# The targets that cannot serve an arm64 build stop here, before anything is
# built or booted, with why and what to use (make -n too: docs/arm64.md has
# the table of every target; tests/build/arm64-targets.t checks it).
ifeq ($(ARCH),arm64)
arm64_both := make test builds and boots both architectures (x86 in build/, arm64 in build/arm64: \
	tests/boot/*arm64*.t); run it without ARCH=arm64
arm64_host := it runs the suite on this host, and the arm64 build is cross-compiled for \
	another CPU; run it without ARCH=arm64 (the appliance: make ARCH=arm64 run)
ARM64_NOT.test := $(arm64_both)
ARM64_NOT.test-all := $(arm64_both)
ARM64_NOT.deps-test := $(arm64_both)
ARM64_NOT.test-boot := $(arm64_both)
ARM64_NOT.test-host := $(arm64_both)
ARM64_NOT.test-image-arm64 := $(arm64_both)
ARM64_NOT.test-unit := the unit tests run on this host against the x86 stub; run make test-unit
ARM64_NOT.boot-tests := $(ARM64_NOT.test-unit)
ARM64_NOT.test-lava := the LAVA jobs describe an x86 QEMU (q35, OVMF, arch amd64); run make test-lava
ARM64_NOT.compare := $(arm64_host)
ARM64_NOT.bench := $(arm64_host)
ARM64_NOT.readme-options := $(arm64_host)
ARM64_NOT.noise-floor := $(arm64_host)
ARM64_NOT.vm := the .vmx (guestOS other4xlinux-64) and its disks are for x86 hypervisors; \
	use build/arm64/timeprobe.img as a raw disk (make ARCH=arm64 run; a cloud server: docs/arm64.md)
arm64_refused := $(firstword $(filter $(patsubst ARM64_NOT.%,%,$(filter ARM64_NOT.%,$(.VARIABLES))), \
	$(MAKECMDGOALS)))
$(if $(arm64_refused),$(error make $(arm64_refused): not for ARCH=arm64: $(ARM64_NOT.$(arm64_refused))))
endif

CC ?= gcc
# The CPUs make run and make test build on: /proc/cpuinfo's processors, read
# by make itself (make -n runs nothing), 2 when it has none.
JOBS ?= $(patsubst 0,2,$(words $(filter processor,$(file </proc/cpuinfo))))
# $(call sq,WORD): WORD quoted for the shell, as one word whatever it holds
# (spaces, quotes): '...' with each ' written '\''.
sq = '$(subst ','\'',$(1))'
# The make a script calls back (tools/run.sh, tools/matrix.sh). A recipe line
# that names $(MAKE) runs even under make -n, script and all: such lines
# name this instead, so make -n prints them and runs nothing.
SCRIPT_MAKE = $(MAKE)
# -ffile-prefix-map: no build path in the objects, so two checkouts give the same bytes.
REPRO_CFLAGS := $(call sq,-ffile-prefix-map=$(CURDIR)=.)
CFLAGS_COMMON := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -MMD -MP $(REPRO_CFLAGS)
KVARIANT ?=
QEMU_MACHINE ?= q35
QEMU_CPUS ?= 2
APPEND ?=
# auto: KVM only where tools/accel.sh has seen a guest run under it.
ACCEL ?= auto
export ACCEL
PROFILE ?=
SOURCE_DATE_EPOCH ?= 1700000000
export SOURCE_DATE_EPOCH

UNIT_TESTS :=
HOST_TESTS :=
BOOT_TESTS := $(sort $(wildcard tests/boot/*.t))

.PHONY: all deps deps-test userland kernel initramfs image image-arm64 run test test-unit test-host test-boot \
	test-all bench fuzz clean readme-options

all: image

deps:
	@sh tools/deps.sh

# make test's packages with its kernels built beside apt: as root, the
# kernel's own packages first, then both kernels start into the cache in the
# background (tools/kernels-ahead.sh; not with KERNEL_IMAGE or
# KERNEL_IMAGE_ARM64 given) while apt installs the rest; the build waits on
# each kernel's lock. Not root: every package must be there before anything
# starts (tools/deps.sh prints the command otherwise).
deps-test:
	@[ "$$(id -u)" = 0 ] || sh tools/deps.sh
	@sh tools/deps.sh --kernel
	@$(if $(KERNEL_IMAGE)$(KERNEL_IMAGE_ARM64),:,sh tools/kernels-ahead.sh $(call sq,$(B)/ahead) $(KVARIANT))
	@sh tools/deps.sh

# ---- userland: the static probe suite ----
# common/: what the stub compiles too (the TP1 record builder, the command-line
# contract, its hand-off formats and the stub's file, the x86 clock arithmetic, the ACPI
# parsers, the TSC offset bounds). Nothing of boot/:
# tests/build/layers.t checks it.
COMMON_SRC := $(wildcard common/*.c)
USERLAND_SRC := $(wildcard userland/*.c userland/probes/*.c) $(COMMON_SRC)
USERLAND_OBJ := $(patsubst %.c,$(B)/musl/%.o,$(USERLAND_SRC))

# musl ships no kernel UAPI headers (linux/futex.h, ...): point at Debian's
# linux-libc-dev ones only, never at glibc's.
MUSL_UAPI := $(B)/musl-uapi
$(MUSL_UAPI)/.done:
	@mkdir -p $(@D)
	ln -sfn $(MUSL_UAPI_SRC)/linux $(@D)/linux
	ln -sfn $(MUSL_UAPI_SRC)/asm-generic $(@D)/asm-generic
	ln -sfn $(MUSL_UAPI_ASM) $(@D)/asm
	@touch $@

$(B)/musl/%.o: %.c | $(MUSL_UAPI)/.done
	@mkdir -p $(@D)
	$(MUSL_CC) $(CFLAGS_COMMON) -D_GNU_SOURCE -isystem $(MUSL_UAPI) $(MUSL_EXTRA) -c $< -o $@

# musl has no version API: the fingerprint's libc name is what the compiler
# links, asked at build time (tools/libc-name.sh), rewritten only when it changes.
$(B)/libc-name.h: tools/libc-name.sh
	@mkdir -p $(@D)
	sh tools/libc-name.sh '$(MUSL_CC)' > $@.tmp
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(B)/musl/userland/libcinfo.o: $(B)/libc-name.h
$(B)/musl/userland/libcinfo.o: MUSL_EXTRA := -include $(B)/libc-name.h

$(B)/timeprobe: $(USERLAND_OBJ)
	$(MUSL_CC) -static -o $@ $^ -lm -lpthread

# The appliance's /init: stripped (a third of the size, and no debug
# information to differ); $(B)/timeprobe keeps the symbols for gdb.
$(B)/timeprobe.stripped: $(B)/timeprobe
	$(CROSS)strip -o $@ $<

userland: $(B)/timeprobe

# ---- unit tests: every tests/unit/test_*.c, built by pattern ----
# Each links against two host libraries (glibc, ASan and UBSan): the userland
# objects (everything but main.c) and the stub's EFI-free objects (STUB_HOST_SRC,
# boot/boot.mk). The linker takes from them only what a test uses, so a new
# test or probe needs no make rule.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer
HOST_CFLAGS := $(CFLAGS_COMMON) -D_GNU_SOURCE $(SAN)
HOST_LIBS := $(SAN) -lm -lpthread -lz -ljansson
USERLAND_HOST_OBJ := $(patsubst %.c,$(B)/host/%.o,$(filter-out userland/main.c,$(USERLAND_SRC)))
USERLAND_HOST_LIB := $(B)/host/libtimeprobe.a
STUB_HOST_LIB := $(B)/host/libstub.a

$(B)/host/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -Icommon -c $< -o $@

$(USERLAND_HOST_LIB): $(USERLAND_HOST_OBJ)
	rm -f $@
	ar rcs $@ $^

UNIT_TESTS += $(patsubst tests/unit/%.c,$(B)/tests/%,$(sort $(wildcard tests/unit/test_*.c)))

$(B)/tests/test_%: tests/unit/test_%.c $(USERLAND_HOST_LIB) $(STUB_HOST_LIB)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(UNIT_EXTRA_CFLAGS) -Icommon -Itests/unit -o $@ $< \
		-Wl,--start-group $(USERLAND_HOST_LIB) $(STUB_HOST_LIB) -Wl,--end-group $(HOST_LIBS)

# Linux 6.1's own next_arg() (lib/cmdline.c), skip_spaces() (lib/string_helpers.c)
# and isspace() with its _ctype table (include/linux/ctype.h, lib/ctype.c), cut
# from the kernel source at build time (GPL-2.0, not kept in the repo), for
# tests/unit/test_nextarg.c to run the stub's splitter against.
LINUX_SRC_TAR := /usr/src/linux-source-6.1.tar.xz
$(B)/tests/linux_next_arg.h: $(LINUX_SRC_TAR)
	@mkdir -p $(@D)
	{ echo '/* SPDX-License-Identifier: GPL-2.0 */'; \
	  echo '/* Generated by the Makefile from linux-source-6.1: do not edit. */'; \
	  tar -xOf $< linux-source-6.1/include/linux/ctype.h | \
		grep -E '^#define (_[A-Z]+\s|__ismask|isspace)'; \
	  tar -xOf $< linux-source-6.1/lib/ctype.c | \
		sed -n '/^const unsigned char _ctype/,/};/p' | sed 's/^const/static const/'; \
	  tar -xOf $< linux-source-6.1/lib/string_helpers.c | \
		sed -n '/^char \*skip_spaces(/,/^}/p' | sed 's/^char/static char/'; \
	  tar -xOf $< linux-source-6.1/lib/cmdline.c | \
		sed -n '/^char \*next_arg(/,/^}/p' | sed 's/^char/static char/'; \
	} > $@.tmp
	grep -q 'static char \*next_arg' $@.tmp && grep -q 'static const unsigned char _ctype' $@.tmp
	mv $@.tmp $@
# test_independence runs tp-report's datasheet on its made-up records.
$(B)/tests/test_independence: $(B)/tp-report
$(B)/tests/test_nextarg: $(B)/tests/linux_next_arg.h
$(B)/tests/test_nextarg: UNIT_EXTRA_CFLAGS = -I$(B)/tests

# ---- kernel ----
ifneq ($(KERNEL_IMAGE),)
# (not a prerequisite: make would split a path with a blank; copied only
# when it differs, so the image is not remade for nothing)
$(B)/kernel/bzImage: FORCE
	@mkdir -p $(@D)
	@test -f $(call sq,$(KERNEL_IMAGE)) || { echo "KERNEL_IMAGE="$(call sq,$(KERNEL_IMAGE))": no such file" >&2; exit 1; }
	cmp -s $(call sq,$(KERNEL_IMAGE)) $@ || cp $(call sq,$(KERNEL_IMAGE)) $@
	rm -f $@.config
else
$(B)/kernel/bzImage: FORCE
	@sh kernel/build.sh $@ $(KVARIANT)
endif
FORCE:
kernel: $(B)/kernel/bzImage

# ---- initramfs (gen_init_cpio from the kernel source, no root needed) ----
# gen_init_cpio.c comes out of the kernel tarball once, then from the kernel
# cache (tools/gen-init-cpio.sh).
GEN_INIT_CPIO := $(B)/tools/gen_init_cpio
$(GEN_INIT_CPIO): tools/gen-init-cpio.sh
	@mkdir -p $(@D)
	sh tools/gen-init-cpio.sh $(B)/tools/gen_init_cpio.c
	$(CC) -O2 -o $@ $(B)/tools/gen_init_cpio.c

# The newc archive compressed with xz as the kernel's own usr/Makefile does
# (CRC32, the check its decoder knows; 1 MiB dictionary): the kernel has
# RD_XZ and no other initramfs decompressor (docs/size.md). x86 adds the
# BCJ filter for x86 code (XZ_DEC_X86); single-threaded, so the same bytes
# every time.
INITRAMFS_XZ := --check=crc32 $(if $(filter x86,$(ARCH)),--x86) --lzma2=dict=1MiB -T1
$(B)/initramfs.img: initramfs/initramfs.list $(B)/timeprobe.stripped $(GEN_INIT_CPIO)
	@# gen_init_cpio stores a file's own mtime: a copy dated SOURCE_DATE_EPOCH
	cp $(B)/timeprobe.stripped $(B)/initramfs.init
	touch -d @$(SOURCE_DATE_EPOCH) $(B)/initramfs.init
	sed 's|@TIMEPROBE@|$(B)/initramfs.init|' initramfs/initramfs.list > $(B)/initramfs.list
	$(GEN_INIT_CPIO) -t $(SOURCE_DATE_EPOCH) $(B)/initramfs.list > $(B)/initramfs.cpio
	xz $(INITRAMFS_XZ) -c $(B)/initramfs.cpio > $@.tmp
	mv $@.tmp $@
initramfs: $(B)/initramfs.img

# ---- the words an image carries, checked before it is made ----
# tools/cmdline-flatten.sh runs `timeprobe check-words` on every image's line
# (disk, ISO, single file, make compare's copy) with the suite's own option
# table: the x86 host build runs here; an arm64 build checks with it when it
# was built (make test builds it first), not otherwise.
ifeq ($(ARCH),x86)
WORDS_CHECK := build/timeprobe
TIMEPROBE_CHECK := $(CURDIR)/build/timeprobe
# Built in another folder (B=...), the checker is still build/timeprobe:
# a make of its own makes it there (docs/lab.md builds in the lab's folder).
ifneq ($(B),build)
build/timeprobe: FORCE
	$(MAKE) B=build build/timeprobe
endif
else
WORDS_CHECK :=
TIMEPROBE_CHECK := $(if $(wildcard build/timeprobe),$(CURDIR)/build/timeprobe)
endif
export TIMEPROBE_CHECK

# ---- boot stub ----
-include boot/boot.mk
-include tools/report/report.mk
-include tools/usbwrite/usbwrite.mk
-include tools/matrix.mk
-include tools/iso.mk
-include tools/vm.mk
-include tools/sign.mk
-include tools/lava/lava.mk
-include tools/install.mk

# ---- disk image ----
# The words added to cmdline.txt, rewritten only when they change (cmp || mv),
# so `make run APPEND=...` rebuilds the image and a plain `make` does not.
$(B)/image-words: FORCE | $(WORDS_CHECK)
	@mkdir -p $(@D)
	@echo '$(KVARIANT) $(QEMU_CPUS) $(APPEND)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/timeprobe.img: $(BOOT_EFI) $(B)/kernel/bzImage $(B)/initramfs.img \
		$(CMDLINE_TXT) tools/mkimage.sh tools/efi-name.sh tools/cmdline-flatten.sh $(B)/image-words
	sh tools/mkimage.sh $@ $(BOOT_EFI) $(B)/kernel/bzImage $(B)/initramfs.img $(CMDLINE_TXT) \
		"$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS)) $(APPEND)"
image: deps
	$(MAKE) $(B)/timeprobe.img report

# The arm64 image and single file beside the x86 ones: make test boots them
# (tests/boot/25-arm64.t, 66-arm64-single-efi.t).
# KERNEL_IMAGE names an x86 kernel here: KERNEL_IMAGE_ARM64 is the arm64 one.
image-arm64: deps
	$(MAKE) ARCH=arm64 KERNEL_IMAGE=$(call sq,$(KERNEL_IMAGE_ARM64)) build/arm64/timeprobe.img \
		build/arm64/timeprobe.efi

# The image's words depend on the accelerator (tools/run.sh), so the script
# builds it, with the make that runs this one: on every CPU (-j$(JOBS))
# unless make was given a -j.
run: deps
	@case " $$MAKEFLAGS" in *" -j"*) ;; *) MAKEFLAGS="$$MAKEFLAGS -j$(JOBS)"; export MAKEFLAGS ;; esac; \
	PROFILE=$(call sq,$(PROFILE)) APPEND=$(call sq,$(APPEND)) FAIL_ON=$(call sq,$(FAIL_ON)) MAKE=$(call sq,$(SCRIPT_MAKE)) \
		sh tools/run.sh $(call sq,$(B)/timeprobe.img) $(call sq,$(QEMU_MACHINE)) $(call sq,$(QEMU_CPUS))

# README's options tables are rewritten from `timeprobe help markdown`, which
# prints the options tables of the code (tests/host/readme-options.t checks).
readme-options: $(B)/timeprobe
	sh tools/readme-options.sh $(B)/timeprobe README.md > README.md.tmp
	mv README.md.tmp README.md

# ---- tests ----
# Boot tests named 9x-*.t are slow (kernel variants, the calibration under load):
# make test-all runs them; so does it 69-net-upload.t (the net kernel, two netboots)
# and 72-lab-doc.t (docs/lab.md run as written: three servers, the net kernel, a netboot).
BOOT_TESTS_QUICK := $(filter-out tests/boot/9% tests/boot/69-net-upload.t tests/boot/72-lab-doc.t,$(BOOT_TESTS))
HOST_SCRIPTS := $(sort $(wildcard tests/host/*.t))
# Checks of the tree and its build: the layers' includes (layers.t), who
# calls whom in userland/ (cycles.t), make -n of every target (make-dry.t),
# docs/ARCHITECTURE.md naming every C file (arch-doc.t), builds in two
# other folders compared byte for byte (repro.t), and the stubs' relocations
# all relative, as gnu-efi's self-relocation needs (stub-relocs.t).
BUILD_TESTS := $(sort $(wildcard tests/build/*.t))

# tools/prove-all.sh runs the boot tests (QEMU guests, about one CPU busy
# each under TCG) CPUS at a time and the other files beside them CPUS / 2
# at a time (CPUS: PROVE_JOBS=N, else nproc), each set longest first
# (tests/prove-times.txt); a .t with a "# timing:" or "# alone:" line runs
# alone after the rest. One summary at the end, with every file's wall and
# CPU time and the slowest ten.
PROVE_ALL := sh tools/prove-all.sh

test-unit: $(UNIT_TESTS)
	$(PROVE_ALL) $(UNIT_TESTS)

test-host: userland report usbwrite $(UNIT_TESTS)
	$(PROVE_ALL) $(HOST_SCRIPTS) $(HOST_TESTS)

test-boot: image efi image-arm64
	$(PROVE_ALL) $(BOOT_TESTS_QUICK)

# What make test and make test-all build, in one make on every CPU (one
# make: tp-report's generators run once, not in two makes at once): the x86
# appliance, tp-report, the single file, tp-usbwrite, the unit tests, the
# fuzzer, and the arm64 appliance beside them (the two kernels build at
# once when not cached). The arm64 make starts once build/timeprobe is
# built: it checks the arm64 image's words with it (WORDS_CHECK).
TEST_BUILD := $(B)/timeprobe.img report efi usbwrite $(UNIT_TESTS) test-image-arm64 \
	$(if $(REPORT_HAVE_FUZZ_CC),$(REPORT_FUZZ))
.PHONY: test-image-arm64
test-image-arm64: $(B)/timeprobe
	$(MAKE) image-arm64

# One run of tools/prove-all.sh, so CI reads one summary. The fuzzer's short
# run (REPORT_FUZZ_QUICK_S of one CPU) is a goal of the build's make, run as
# soon as the fuzzer is built, beside the rest of the build: on its own it
# left the other CPU idle for its seconds.
test: deps-test
	@echo "test: KVM or TCG (tools/accel.sh: boots the firmware under KVM once per machine)"
	@sh tools/accel.sh >/dev/null
	@echo "test: building both appliances (each kernel cached or built, minutes), tp-report, the unit tests, on $(JOBS) CPUs, and the report fuzzer's short run beside them"
	$(MAKE) -j$(JOBS) $(TEST_BUILD) fuzz-report-quick
	$(PROVE_ALL) $(BOOT_TESTS_QUICK) $(BUILD_TESTS) $(HOST_SCRIPTS) $(HOST_TESTS) $(UNIT_TESTS)

test-all: deps-test
	@echo "test-all: KVM or TCG (tools/accel.sh: boots the firmware under KVM once per machine)"
	@sh tools/accel.sh >/dev/null
	@echo "test-all: building both appliances (each kernel cached or built, minutes), tp-report, the unit tests, on $(JOBS) CPUs"
	$(MAKE) -j$(JOBS) $(TEST_BUILD)
	@echo "test-all: the report fuzzer's long run"
	$(MAKE) fuzz-report-long
	REPRO_KERNEL=1 $(PROVE_ALL) $(BOOT_TESTS) $(BUILD_TESTS) $(HOST_SCRIPTS) $(HOST_TESTS) $(UNIT_TESTS)

fuzz: fuzz-report-long

# Side-by-side benchmarks on this host; see docs/benchmarks.md.
bench: deps userland report
	@for s in $(sort $(wildcard tools/bench/*.sh)); do echo "== $$s"; sh $$s || echo "bench: $$s failed"; done

clean:
	rm -rf $(B)

# The compilers' dependency files (-MMD) of this file's objects (boot.mk and
# report.mk include their own); named, not searched for: a $(shell find)
# would run even under make -n.
-include $(USERLAND_OBJ:.o=.d) $(USERLAND_HOST_OBJ:.o=.d) \
	$(addsuffix .d,$(filter $(B)/tests/test_%,$(UNIT_TESTS)))
