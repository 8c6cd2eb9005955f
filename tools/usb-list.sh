#!/bin/sh
# SPDX-License-Identifier: MIT
# make usb without DEV=: the disks a stick could be, for the person to
# choose from; nothing is opened or written (lsblk reads sysfs).
#
#   tools/usb-list.sh
#
# Lists whole disks that are removable or on USB, SD/MMC or FireWire, with
# size, transport and model. lsblk's raw output (one blank between fields,
# an empty field empty) escapes every blank and control character of a
# model (\xNN), so a device's own strings cannot move the cursor here;
# blanks are shown as blanks again.
set -eu

echo 'usage: make usb DEV=/dev/sdX   (the whole disk, not a partition)'
command -v lsblk >/dev/null 2>&1 || { echo 'make usb: lsblk missing (apt-get install util-linux)'; exit 2; }
list=$(lsblk -d -n -r -o NAME,SIZE,TRAN,RM,TYPE,MODEL 2>/dev/null | awk -F '[ ]' '
	$5 == "disk" && ($4 == "1" || $3 == "usb" || $3 == "mmc" || $3 == "ieee1394") {
		model = $6; gsub(/\\x20/, " ", model); sub(/ +$/, "", model)
		printf "  /dev/%-10s %8s  %-6s %s%s\n", $1, $2, ($3 == "" ? "-" : $3),
			(model == "" ? "(no model)" : model), ($4 == "1" ? ", removable" : "")
	}')
if [ -n "$list" ]; then
	echo 'Removable and USB disks here (device, size, transport, model):'
	printf '%s\n' "$list"
else
	echo 'No removable or USB disk found here (lsblk -d -o NAME,SIZE,TRAN,RM,MODEL lists every disk).'
fi
exit 2
