#!/bin/sh
# SPDX-License-Identifier: MIT
# The name UEFI firmware boots from removable media by default (UEFI 2.10,
# 3.5.1.1 "Removable Media Boot Behavior") for the architecture in ARCH
# (x86 or arm64, as the Makefile exports it): BOOTX64.EFI or BOOTAA64.EFI.
# tools/mkimage.sh and tools/mkiso.sh put the stub there.
#
#   sh tools/efi-name.sh
set -eu

case ${ARCH:-x86} in
arm64|aarch64) echo BOOTAA64.EFI ;;
x86|x86_64|amd64) echo BOOTX64.EFI ;;
*) echo "efi-name: ARCH='$ARCH' is neither x86 nor arm64" >&2; exit 2 ;;
esac
