/* SPDX-License-Identifier: MIT */
/*
 * The kernel loaded and started (systemd's src/boot/linux.c does the same):
 * \EFI\timeprobe\vmlinuz in file mode or the .linux section in single-file
 * mode, its header checked first (pe.c), the initramfs gathered and served
 * (initrd.c), LoadImage with our command line as LoadOptions, StartImage.
 */
#ifndef TP_BOOT_KERNEL_H
#define TP_BOOT_KERNEL_H

#include <efi.h>

struct tp_stub;

/* Returns only when the kernel could not start or came back: why, said. */
EFI_STATUS tp_kernel_boot(struct tp_stub *s);

#endif
