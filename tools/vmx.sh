#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints a VMware machine file (.vmx) for the appliance's VMware disk:
#
#   tools/vmx.sh NAME CPUS MEMORY_MIB > NAME.vmx
#
# NAME.vmdk must lie beside the .vmx; the serial port writes NAME-serial.log
# there. VMware resolves both relative to the .vmx's folder. The settings
# and why each is there are in docs/vm.md (the VirtualBox and Hyper-V
# sections name the same ones).
set -eu
[ $# -eq 3 ] || { echo "usage: tools/vmx.sh NAME CPUS MEMORY_MIB" >&2; exit 2; }
name=$1 cpus=$2 memory_mib=$3
# The name goes between double quotes in the file: letters, digits, . _ - only.
case $name in
''|*[!A-Za-z0-9._-]*) echo "vmx: bad machine name '$name' (letters, digits, . _ -)" >&2; exit 2 ;;
esac
case $cpus$memory_mib in *[!0-9]*) echo "vmx: CPUS and MEMORY_MIB are numbers" >&2; exit 2 ;; esac

# Why each setting (more in docs/vm.md):
#   virtualHW.version 14   Workstation/Player 14, Fusion 10, ESXi 6.7 and later
#   firmware efi, no Secure Boot   the stub is not signed for VMware's keys
#   sata0:0                SATA (AHCI): VMware's UEFI boots from it and the
#                          kernel already drives it (CONFIG_SATA_AHCI)
#   serial0 to a file      COM1 (0x3F8): the console and the TP1 records
#   no network, sound, USB, floppy: nothing to add interrupts
#   tools.syncTime, time.synchronize.*: the host never sets the guest's clock
#   (no VMware Tools run inside, but the settings say so outright)
# The file has no comment lines: VMware rewrites it and keeps only settings.
cat <<EOF
.encoding = "UTF-8"
config.version = "8"
virtualHW.version = "14"
displayName = "$name"
guestOS = "other4xlinux-64"
firmware = "efi"
uefi.secureBoot.enabled = "FALSE"
numvcpus = "$cpus"
memsize = "$memory_mib"
sata0.present = "TRUE"
sata0:0.present = "TRUE"
sata0:0.fileName = "$name.vmdk"
serial0.present = "TRUE"
serial0.fileType = "file"
serial0.fileName = "$name-serial.log"
serial0.tryNoRxLoss = "FALSE"
ethernet0.present = "FALSE"
sound.present = "FALSE"
usb.present = "FALSE"
floppy0.present = "FALSE"
tools.syncTime = "FALSE"
time.synchronize.continue = "FALSE"
time.synchronize.restore = "FALSE"
time.synchronize.resume.disk = "FALSE"
time.synchronize.shrink = "FALSE"
time.synchronize.tools.startup = "FALSE"
EOF
