# SPDX-License-Identifier: MIT
# The UEFI stub (BOOTX64.EFI; BOOTAA64.EFI with ARCH=arm64) and its host unit tests.
#
# Included by the top Makefile (B = output root, CC = host gcc); also usable
# alone from the repository root:
#   make -f boot/boot.mk B=build build/boot/BOOTX64.EFI
# Its host unit tests are built by the top Makefile's pattern rule:
#   make boot-tests && prove build/tests/test_calib ...
# The single file timeprobe.efi (make efi) needs the top Makefile's kernel
# and initramfs rules; see docs/netboot.md.
# Builds with Debian 12's gnu-efi 3.0.15 the standard way: position-independent
# ELF shared object linked against crt0 + libefi, then objcopy to PE32+.

B ?= build
CC ?= gcc

# ---- the architecture (ARCH and BOOT_EFI from the top Makefile) ----
# x86: Debian's gnu-efi, installed. arm64: gnu-efi:arm64 unpacked into the
# build (tools/gnu-efi-arm64.sh), the cross binutils, and a PE header that
# crt0-efi-aarch64.o carries itself (hence -O binary, EFI_SUBSYSTEM=0xa =
# EFI application). The arm64 stub has no x86 references (tsc.c, mp.c,
# measure.c): arm64/calib.c and arm64/mp.c take their places (docs/arm64.md).
ARCH ?= x86
BOOT_EFI ?= $(B)/boot/BOOTX64.EFI
BOOT_EFI_COMMON_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -fpic -ffreestanding \
	-fno-stack-protector -fno-stack-check -fshort-wchar -Iboot -Icommon -MMD -MP $(REPRO_CFLAGS)
# The sections of a gnu-efi PE image (3.0.15 layout, no .sbat).
BOOT_EFI_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .dynsym \
	-j .rel -j .rela -j .rel.* -j .rela.* -j .reloc
ifeq ($(ARCH),arm64)
GNU_EFI_ARM64 := $(B)/gnu-efi
EFI_DEPS := $(GNU_EFI_ARM64)/.done
EFI_INC := $(GNU_EFI_ARM64)/usr/include/efi
EFI_LIB := $(GNU_EFI_ARM64)/usr/lib
EFI_CC := aarch64-linux-gnu-gcc
EFI_LD := aarch64-linux-gnu-ld
EFI_OBJCOPY := aarch64-linux-gnu-objcopy
EFI_OBJDUMP := aarch64-linux-gnu-objdump
EFI_CRT0 := $(EFI_LIB)/crt0-efi-aarch64.o
EFI_LDS := $(EFI_LIB)/elf_aarch64_efi.lds
# -mno-outline-atomics: atomics inline (LL/SC), not calls to libgcc's
# __aarch64_* helpers through a PLT slot that gnu-efi's self-relocation
# (R_AARCH64_RELATIVE only) never fills: the pre-OS scan's APs claim their
# slots with an atomic add.
BOOT_EFI_CFLAGS := $(BOOT_EFI_COMMON_CFLAGS) -mno-outline-atomics -I$(EFI_INC) \
	-I$(EFI_INC)/aarch64 -I$(EFI_INC)/protocol
BOOT_EFI_LDFLAGS := -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic \
	--defsym=EFI_SUBSYSTEM=0xa -L$(EFI_LIB) $(EFI_CRT0)
BOOT_EFI_FORMAT := -O binary
BOOT_ARCH_SRCS := boot/arm64/calib.c boot/arm64/mp.c boot/arm64/ap.c boot/arm64/hwlat.c
else
EFI_DEPS :=
EFI_INC ?= /usr/include/efi
EFI_LIB ?= /usr/lib
EFI_CC := $(CC)
EFI_LD ?= ld
EFI_OBJCOPY ?= objcopy
EFI_OBJDUMP ?= objdump
EFI_CRT0 := $(EFI_LIB)/crt0-efi-x86_64.o
EFI_LDS := $(EFI_LIB)/elf_x86_64_efi.lds
# GNU_EFI_USE_MS_ABI: EFIAPI = __attribute__((ms_abi)), so firmware calls are
# plain C calls (uefi_call_wrapper() is then a no-op macro). efi_main itself
# is called by crt0 with the SysV ABI.
BOOT_EFI_CFLAGS := $(BOOT_EFI_COMMON_CFLAGS) -mno-red-zone -maccumulate-outgoing-args \
	-DGNU_EFI_USE_MS_ABI -I$(EFI_INC) -I$(EFI_INC)/x86_64 -I$(EFI_INC)/protocol
BOOT_EFI_LDFLAGS := -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic \
	-L$(EFI_LIB) $(EFI_CRT0)
BOOT_EFI_FORMAT := --target efi-app-x86_64 --subsystem=10
BOOT_ARCH_SRCS := boot/tsc.c boot/measure.c boot/mp.c boot/hwlat.c
endif
BOOT_EFI_LIBS := -lefi -lgnuefi

BOOT_EFI_SRCS := boot/stub.c boot/file.c boot/kernel.c boot/initrd.c boot/digest.c boot/spcrcon.c boot/cmdload.c boot/cmdbuild.c boot/options.c boot/console.c boot/calib.c boot/cmdfile.c boot/cmdline.c boot/mpshare.c \
	boot/devpath.c boot/efitext.c boot/ucs2.c boot/pe.c boot/spcr.c boot/efiacpi.c boot/edges.c \
	boot/hwlatrec.c boot/hwlatrun.c $(BOOT_ARCH_SRCS) \
	$(wildcard common/*.c)
BOOT_EFI_OBJS := $(patsubst %.c,$(B)/boot/efi/%.o,$(BOOT_EFI_SRCS))

.PHONY: boot boot-tests efi
boot: $(BOOT_EFI)
efi: $(B)/timeprobe.efi

$(GNU_EFI_ARM64)/.done: tools/gnu-efi-arm64.sh
	sh tools/gnu-efi-arm64.sh $(GNU_EFI_ARM64)
	touch $@

$(B)/boot/efi/%.o: %.c | $(EFI_DEPS)
	@mkdir -p $(dir $@)
	$(EFI_CC) $(BOOT_EFI_CFLAGS) -c $< -o $@

$(B)/boot/stub.so: $(BOOT_EFI_OBJS)
	$(EFI_LD) $(BOOT_EFI_LDFLAGS) $(BOOT_EFI_OBJS) -o $@ $(BOOT_EFI_LIBS)

$(BOOT_EFI): $(B)/boot/stub.so
	$(EFI_OBJCOPY) $(BOOT_EFI_SECTIONS) $(BOOT_EFI_FORMAT) $< $@

# ---- the single file: stub + kernel + initramfs + command line ----
# (ARCH=arm64: BOOTAA64.EFI with the arm64 kernel, boot/mkefi.sh.)
# The embedded default command line is what the disk image's cmdline.txt
# holds (CMDLINE_TXT, the kernel's words, APPEND) without initrd=: the
# initramfs travels in .initrd and reaches Linux by LINUX_EFI_INITRD_MEDIA_GUID.
# Rewritten only when it changes (KVARIANT and APPEND are not files).
$(B)/timeprobe.cmdline: $(CMDLINE_TXT) tools/kconfig-words.sh tools/cmdline-flatten.sh \
		$(B)/kernel/bzImage FORCE | $(WORDS_CHECK)
	@mkdir -p $(@D)
	sh tools/cmdline-flatten.sh --drop initrd $(CMDLINE_TXT) \
		"$$(sh tools/kconfig-words.sh $(B)/kernel/bzImage.config '$(KVARIANT)' $(QEMU_CPUS))" \
		'$(APPEND)' > $@.tmp
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/timeprobe.efi: $(BOOT_EFI) $(B)/boot/stub.so $(B)/kernel/bzImage $(B)/initramfs.img \
		$(B)/timeprobe.cmdline boot/mkefi.sh
	EFI_SECTIONS='$(BOOT_EFI_SECTIONS)' EFI_OBJCOPY=$(EFI_OBJCOPY) EFI_OBJDUMP=$(EFI_OBJDUMP) \
		sh boot/mkefi.sh $@ $(B)/boot/stub.so $(BOOT_EFI) $(B)/kernel/bzImage \
		$(B)/initramfs.img $(B)/timeprobe.cmdline
FORCE:

# ---- host unit tests (TAP, run by prove) ----
# The stub's EFI-free files, built for the host with the sanitizers into one
# library; the top Makefile links every tests/unit/test_*.c against it.
# (common/ comes from the userland library, built from the same files.)
STUB_HOST_SRC := boot/calib.c boot/edges.c boot/cmdfile.c boot/cmdline.c boot/devpath.c boot/efitext.c \
	boot/ucs2.c boot/pe.c boot/spcr.c
STUB_HOST_OBJ := $(patsubst %.c,$(B)/boot/host/%.o,$(STUB_HOST_SRC))
BOOT_UNIT_TESTS := $(B)/tests/test_calib $(B)/tests/test_edges $(B)/tests/test_bootcmd $(B)/tests/test_acpi \
	$(B)/tests/test_pe $(B)/tests/test_spcr
boot-tests: $(BOOT_UNIT_TESTS)

$(B)/boot/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Iboot -Icommon -c $< -o $@

$(B)/host/libstub.a: $(STUB_HOST_OBJ)
	rm -f $@
	ar rcs $@ $^

# test_pe reads a real build's headers: the stub, and the stub made into a
# single file by boot/mkefi.sh with small known payloads (BOOTX64.EFI itself
# stands in for the kernel: a valid x86-64 EFI application).
PE_FIXTURE := $(B)/tests/pe/fixture.efi
$(PE_FIXTURE): $(B)/boot/BOOTX64.EFI $(B)/boot/stub.so boot/mkefi.sh
	@mkdir -p $(@D)
	head -c 5000 /dev/zero | tr '\0' 'i' > $(@D)/initrd.bin
	printf '# fixture\nconsole=ttyS0,115200 initrd=\\EFI\\timeprobe\\initramfs.img quiet\n' > $(@D)/cmdline.txt
	EFI_SECTIONS='$(BOOT_EFI_SECTIONS)' EFI_OBJCOPY=$(EFI_OBJCOPY) \
		sh boot/mkefi.sh $@ $(B)/boot/stub.so $(B)/boot/BOOTX64.EFI $(B)/boot/BOOTX64.EFI \
		$(@D)/initrd.bin $(@D)/cmdline.txt >/dev/null
$(B)/tests/test_pe: $(PE_FIXTURE)
$(B)/tests/test_pe: UNIT_EXTRA_CFLAGS = \
	-DTP_PE_STUB='"$(abspath $(B)/boot/BOOTX64.EFI)"' \
	-DTP_PE_FIXTURE='"$(abspath $(PE_FIXTURE))"' -DTP_PE_FIXTURE_DIR='"$(abspath $(B)/tests/pe)"'

-include $(BOOT_EFI_OBJS:.o=.d) $(STUB_HOST_OBJ:.o=.d)
