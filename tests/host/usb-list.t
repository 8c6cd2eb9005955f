#!/bin/sh
# SPDX-License-Identifier: MIT
# make usb without DEV= (tools/usb-list.sh): the removable and USB disks,
# with size, transport and model, from a stand-in lsblk; fixed disks left
# out, a model's escaped control characters shown escaped, exit 2. And
# make usb DEV=a-file refuses the device before it builds an image.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-usblist.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# lsblk -d -n -r -o NAME,SIZE,TRAN,RM,TYPE,MODEL, as util-linux 2.38 prints it
cat > "$tmp/bin/lsblk" <<'LSBLK'
#!/bin/sh
printf '%s\n' 'nvme0n1 476.9G nvme 0 disk Samsung\x20SSD\x20980' \
	'sda 14.6G usb 1 disk SanDisk\x20Ultra' \
	'sdb 29.7G usb 0 disk Evil\x1b[2J\x20Stick' \
	'mmcblk0 59.5G  1 disk ' \
	'sr0 1024M sata 1 rom DVD' \
	'loop0 64M  0 loop '
LSBLK
chmod +x "$tmp/bin/lsblk"

out=$(PATH="$tmp/bin:$PATH" sh tools/usb-list.sh)
rc=$?
has() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
lacks() { ! has "$@"; }
[ "$rc" = 2 ]
pass $? "exit 2: nothing written, make stops (got $rc)"
ok "the usage first" has "$out" "usage: make usb DEV=/dev/sdX"
ok "a removable USB stick: device, size, transport, model" has "$out" "/dev/sda"
ok "its model with blanks" has "$out" "SanDisk Ultra, removable"
ok "a USB disk that is not removable" has "$out" "/dev/sdb"
ok "its model's escape kept escaped" has "$out" 'Evil\x1b[2J Stick'
ok "no raw escape character printed" lacks "$out" "$(printf '\033')"
ok "a removable card reader with no transport" has "$out" "/dev/mmcblk0"
ok "the fixed NVMe disk left out" lacks "$out" "nvme0n1"
ok "not a disk (CD drive, loop) left out" lacks "$out" "sr0"

printf '#!/bin/sh\nprintf "%%s\\n" "vda 256G  0 disk QEMU"\n' > "$tmp/bin/lsblk"
out=$(PATH="$tmp/bin:$PATH" sh tools/usb-list.sh)
ok "none: says so" has "$out" "No removable or USB disk found here"

# make usb DEV=FILE: the device refused before any image is made for it.
: > "$tmp/not-a-disk"
out=$(make --no-print-directory usb DEV="$tmp/not-a-disk" 2>&1)
rc=$?
[ "$rc" != 0 ]
pass $? "make usb DEV=a-file fails (status $rc)"
ok "saying it is not a block device" has "$out" "not a block device"
ok "before the image is made or checked" lacks "$out" "timeprobe.img"
done_testing
