/* SPDX-License-Identifier: MIT */
/*
 * The part of EFI_MP_SERVICES_PROTOCOL the stub uses, as the UEFI Platform
 * Initialization Specification defines it (PI 1.7, vol. 2, 13.4 "MP
 * Services Protocol"; EDK II MdePkg/Include/Protocol/MpService.h). gnu-efi
 * 3.0.15 does not ship it. Members keep the specification's order: the
 * stub calls GetNumberOfProcessors, GetProcessorInfo, StartupAllAPs,
 * StartupThisAP and WhoAmI; the others are typed as opaque pointers.
 */
#ifndef TP_BOOT_MPSERVICES_H
#define TP_BOOT_MPSERVICES_H

#include <efi.h>

/* PI vol. 2, 13.4: {3fdda605-a76e-4f46-ad29-12f4531b3d08} */
#define TP_MP_SERVICES_PROTOCOL_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

/* EFI_PROCESSOR_INFORMATION.StatusFlag (PI vol. 2, 13.4.3) */
#define TP_PROCESSOR_AS_BSP_BIT 0x1
#define TP_PROCESSOR_ENABLED_BIT 0x2
#define TP_PROCESSOR_HEALTH_STATUS_BIT 0x4

/* PI vol. 2, 13.4.3 GetProcessorInfo: EFI_PROCESSOR_INFORMATION */
struct tp_processor_info {
	UINT64 processor_id;		/* the local APIC ID (x2APIC ID where enabled) */
	UINT32 status_flag;
	UINT32 package, core, thread;	/* EFI_CPU_PHYSICAL_LOCATION */
	/* EXTENDED_PROCESSOR_INFORMATION (PI 1.7), written only when the
	 * processor number carries CPU_V2_EXTENDED_TOPOLOGY: room kept */
	UINT32 extended[6];
};

typedef VOID(EFIAPI *tp_ap_procedure)(VOID *arg);

struct tp_mp_services;

struct tp_mp_services {
	EFI_STATUS(EFIAPI *get_number_of_processors)(struct tp_mp_services *this, UINTN *number,
						     UINTN *enabled);
	EFI_STATUS(EFIAPI *get_processor_info)(struct tp_mp_services *this, UINTN number,
					       struct tp_processor_info *info);
	/* PI vol. 2, 13.4.4: non-blocking when wait_event is not NULL */
	EFI_STATUS(EFIAPI *startup_all_aps)(struct tp_mp_services *this, tp_ap_procedure proc,
					    BOOLEAN single_thread, EFI_EVENT wait_event,
					    UINTN timeout_us, VOID *arg, UINTN **failed_cpu_list);
	/* PI vol. 2, 13.4.5: non-blocking when wait_event is not NULL */
	EFI_STATUS(EFIAPI *startup_this_ap)(struct tp_mp_services *this, tp_ap_procedure proc,
					    UINTN number, EFI_EVENT wait_event,
					    UINTN timeout_us, VOID *arg, BOOLEAN *finished);
	VOID *switch_bsp;
	VOID *enable_disable_ap;
	EFI_STATUS(EFIAPI *who_am_i)(struct tp_mp_services *this, UINTN *number);
};

#endif
