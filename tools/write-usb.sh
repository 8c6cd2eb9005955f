#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the appliance's disk image to a USB stick, refusing anything that
# does not look like one, and reads it back to check (docs/vm.md, README).
#
#   tools/write-usb.sh [--force] IMAGE DEVICE
#
# Refuses, and writes nothing, when DEVICE
#   - is not a block device, or is a partition rather than the whole disk;
#   - is read-only, has no medium, or is smaller than IMAGE;
#   - holds the running root, a mounted filesystem, swap, or is in use by
#     LVM, RAID or encryption;
#   - is neither removable nor on USB (nor an SD card)   unless --force;
#   - is larger than 256 GB (no stick a user means to wipe)  unless --force;
# or when the user, shown the disk's vendor, model, size and partitions,
# does not type its name back. Then it writes with a progress display,
# fsyncs, drops the device's cached pages, reads the image's length back
# and compares SHA-256 hashes. Exit status: 0 written and verified, 1
# refused or failed, 2 bad usage.
#
# Tests only: TP_USB_TEST=1 makes DEVICE a plain file (a block device is then
# refused) and takes the kernel's answers from TP_USB_SYSFS (a crafted /sys)
# and TP_USB_LSBLK (a crafted lsblk); TP_USB_TEST_FLIP=OFFSET changes one
# byte of the file after writing, as a failing stick would. Without
# TP_USB_TEST=1 these are ignored.
set -eu

# Text with paths, device names and answers in it: printf, never echo (dash's
# echo turns \t or \b in a path into control characters).
say() {
	printf '%s\n' "$*"
}

LARGE_BYTES=256000000000	# 256 GB, as sticks are labelled (10^9)

force=
while [ $# -gt 0 ]; do
	case $1 in
	--force) force=1; shift ;;
	-*) say "write-usb: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { say "usage: tools/write-usb.sh [--force] IMAGE DEVICE" >&2; exit 2; }
img=$1 dev=$2

refuse() {
	say "write-usb: refusing $dev: $*; nothing was written" >&2
	exit 1
}

test_mode=
sysfs=/sys lsblk=lsblk
if [ "${TP_USB_TEST:-}" = 1 ]; then
	test_mode=1
	sysfs=${TP_USB_SYSFS:?TP_USB_TEST=1 needs TP_USB_SYSFS}
	lsblk=${TP_USB_LSBLK:?TP_USB_TEST=1 needs TP_USB_LSBLK}
fi

[ -f "$img" ] || { say "write-usb: no image $img (make image)" >&2; exit 1; }
img_bytes=$(stat -c %s "$img")

# The kernel's name of the device (sdb), through /dev/disk/by-id/ links.
if [ -n "$test_mode" ]; then
	[ -f "$dev" ] && [ ! -L "$dev" ] || refuse "TP_USB_TEST=1 writes only to plain files"
	name=$(basename "$dev")
else
	[ -e "$dev" ] || refuse "no such device"
	[ -b "$dev" ] || refuse "not a block device (a disk is /dev/sdX; lsblk lists them)"
	name=$(basename "$(readlink -f "$dev")")
fi
sys=$sysfs/class/block/$name
[ -d "$sys" ] || refuse "the kernel lists no block device '$name' in $sysfs/class/block"

# One line of a sysfs attribute, or DEFAULT when it is missing; printable
# characters only (a device's model string reaches the terminal).
attr() {
	if [ -r "$sys/$1" ]; then
		head -n 1 "$sys/$1" | tr -cd '[:print:]' | sed 's/[[:space:]]*$//'
	else
		say "$2"
	fi
}

# A partition has a `partition` attribute; its parent folder is the disk.
check_whole_disk() {
	[ -e "$sys/partition" ] || return 0
	disk=$(basename "$(dirname "$(readlink -f "$sys")")")
	refuse "it is a partition, not a whole disk (write to the disk, /dev/$disk)"
}

check_medium() {
	[ "$(attr ro 0)" = 0 ] || refuse "it is read-only (a write-protect switch?)"
	sectors=$(attr size 0)
	case $sectors in ''|*[!0-9]*) refuse "its size in $sys/size is not a number: '$sectors'" ;; esac
	# /sys/class/block/*/size counts 512-byte sectors whatever the block size
	# (include/linux/blkdev.h, SECTOR_SHIFT).
	dev_bytes=$(( sectors * 512 ))
	[ "$dev_bytes" -gt 0 ] || refuse "it has no medium (size 0)"
	[ "$dev_bytes" -ge "$img_bytes" ] ||
		refuse "it holds $dev_bytes bytes, the image needs $img_bytes"
	if [ "$dev_bytes" -gt "$LARGE_BYTES" ] && [ -z "$force" ]; then
		refuse "it is $(gb "$dev_bytes") GB, larger than any stick we expect" \
			"(256 GB); --force (make usb USB_FORCE=1) if you mean it"
	fi
}

gb() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e9 }'
}

# Everything on the disk and its partitions, from lsblk: NAME TYPE [MOUNTPOINT]
# (-r escapes spaces in mount points as \x20, so fields split on blanks).
check_unused() {
	usage=$("$lsblk" -nrpo NAME,TYPE,MOUNTPOINT "$dev") ||
		refuse "lsblk cannot list it"
	first=$(say "$usage" | head -n 1 | cut -d' ' -f1)
	# The first line is the device itself (disk, or loop for a loop device);
	# any other type below it (lvm, crypt, raid*) is a user of it.
	say "$usage" | while read -r node type mnt; do
		case $mnt in
		/) say "holds the running root (/ is on $node)" ;;
		\[SWAP\]) say "$node is in use as swap (swapoff $node first)" ;;
		?*) say "$node is mounted on $mnt (umount it first)" ;;
		esac
		case $type in
		disk|part|'') ;;
		*) [ "$type" = loop ] && [ "$node" = "$first" ] ||
			say "$node ($type: LVM, RAID, encryption...) is built on it; stop that first" ;;
		esac
	done > "$tmp/busy"
	# The running root first: the one reason that must never be missed.
	[ ! -s "$tmp/busy" ] ||
		refuse "$(grep -m 1 'running root' "$tmp/busy" || head -n 1 "$tmp/busy")"
}

# Removable (sysfs), on USB (lsblk's transport or the device's sysfs path), or
# an SD card: what a stick looks like. Anything else needs --force.
check_removable() {
	tran=$("$lsblk" -ndo TRAN "$dev" 2>/dev/null | head -n 1 | tr -d ' ') || tran=
	path=$(readlink -f "$sys")
	case $tran:$path:$(attr removable 0) in
	usb:*|*/usb[0-9]*|*:1|mmc:*|*/mmc_host/*) return 0 ;;
	esac
	[ -n "$force" ] && return 0
	refuse "it is neither removable nor on USB (transport '${tran:-unknown}'):" \
		"a fixed disk? --force (make usb USB_FORCE=1) if you mean it"
}

# Shows the disk and asks for its name back; anything else stops here.
confirm() {
	vendor=$(attr device/vendor '?') model=$(attr device/model '?')
	say "write-usb: $dev ($name): $vendor $model, $(gb "$dev_bytes") GB," \
		"transport ${tran:-unknown}, now holding:"
	"$lsblk" -o NAME,SIZE,TYPE,FSTYPE,LABEL,MOUNTPOINT "$dev" | sed 's/^/    /'
	say "write-usb: everything on $dev will be replaced by $img ($img_bytes bytes)."
	printf 'write-usb: type the device name (%s) to go on: ' "$name"
	answer=
	read -r answer || true
	[ -t 0 ] || say "$answer"	# a piped answer shows as if typed
	case $answer in
	"$name"|"$dev"|"/dev/$name") ;;
	*) refuse "the answer was '$answer', not '$name'" ;;
	esac
}

# dd with a progress line; fsync before dd exits (conv=fsync). notrunc keeps
# a test's plain file whole; a block device is not truncated anyway.
write_image() {
	[ -w "$dev" ] || refuse "no permission to write it (run as root: sudo make usb DEV=$dev)"
	say "write-usb: writing $img to $dev"
	dd if="$img" of="$dev" bs=4M conv=fsync,notrunc status=progress ||
		{ say "write-usb: writing $dev failed (above); the stick holds a partial image" >&2; exit 1; }
	if [ -n "$test_mode" ] && [ -n "${TP_USB_TEST_FLIP:-}" ]; then
		case $TP_USB_TEST_FLIP in *[!0-9]*) say "write-usb: TP_USB_TEST_FLIP is an offset" >&2; exit 2 ;; esac
		printf '\377' | dd of="$dev" bs=1 seek="$TP_USB_TEST_FLIP" conv=notrunc status=none
	fi
}

# Reads back what the device holds now, not the page cache: BLKFLSBUF
# (blockdev --flushbufs) drops the device's cached pages first.
verify() {
	[ -n "$test_mode" ] || blockdev --flushbufs "$dev" ||
		say "write-usb: could not drop $dev's cache; the read-back may come from memory" >&2
	want=$(sha256sum < "$img" | cut -d' ' -f1)
	got=$(head -c "$img_bytes" "$dev" | sha256sum | cut -d' ' -f1)
	say "write-usb: image    sha256 $want"
	say "write-usb: $dev sha256 $got (first $img_bytes bytes read back)"
	if [ "$want" != "$got" ]; then
		say "write-usb: read-back differs from the image: the stick is failing or" \
			"smaller than it claims; try another one" >&2
		exit 1
	fi
	[ -n "$test_mode" ] || blockdev --rereadpt "$dev" 2>/dev/null || true
}

next_steps() {
	cat <<EON
write-usb: $dev written and verified.
Next:
  1. Remove the stick (if the desktop mounted it meanwhile, eject it first).
  2. On the machine to measure: boot it from the stick in UEFI mode (the
     firmware's boot menu, often F12, F11, F8 or Esc); Secure Boot off, or
     see docs/secureboot.md.
  3. Watch the screen, or read the serial console (115200 8N1, null-modem
     cable): picocom -b 115200 /dev/ttyUSB0 --logfile run.log
  4. The machine powers off when done. Results are on the stick in
     \\timeprobe\\results\\; compare them with build/timeprobe report FILE...
  The options are in \\EFI\\timeprobe\\cmdline.txt on the stick (README, Options).
EON
}

tmp=$(mktemp -d /tmp/write-usb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
check_whole_disk
check_medium
check_unused
check_removable
confirm
write_image
verify
next_steps
