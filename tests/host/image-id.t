#!/bin/sh
# SPDX-License-Identifier: MIT
# Every disk image made gets an identity of its own (tools/image-ids.sh):
# its ESP's partition GUID, which its \timeprobe\id names, and which the
# appliance checks before it saves (userland/save.c). Two images of the same
# inputs differ in it; with one TIMEPROBE_IMAGE_ID they are the same bytes.
# Small stand-in inputs: the tools copy files, they do not look inside.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

for t in sgdisk mcopy mtype; do
	command -v $t >/dev/null || { echo "1..0 # SKIP $t missing (sh tools/deps.sh)"; exit 0; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-imageid.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export MTOOLS_SKIP_CHECK=1 SOURCE_DATE_EPOCH=1700000000
for f in efi kernel initrd; do echo "$f" > "$tmp/$f"; done
printf 'console=ttyS0\n' > "$tmp/cmdline.txt"

make_image() {	# make_image OUT [TIMEPROBE_IMAGE_ID]
	env ${2:+TIMEPROBE_IMAGE_ID=$2} sh tools/mkimage.sh "$1" "$tmp/efi" "$tmp/kernel" \
		"$tmp/initrd" "$tmp/cmdline.txt" >/dev/null
}
part_guid() {
	sgdisk -i 1 "$1" | sed -n 's/^Partition unique GUID: //p' | tr 'A-F' 'a-f'
}
id_names_partition() {
	[ -n "$(part_guid "$1")" ] && [ "$(mtype -i "$1@@1M" ::/timeprobe/id)" = "$(part_guid "$1")" ]
}

ok "image a made" make_image "$tmp/a.img"
ok "image b made from the same inputs" make_image "$tmp/b.img"
ok "a: \\timeprobe\\id names its partition" id_names_partition "$tmp/a.img"
ok "b: \\timeprobe\\id names its partition" id_names_partition "$tmp/b.img"
ok "a and b have different partition GUIDs" test "$(part_guid "$tmp/a.img")" != "$(part_guid "$tmp/b.img")"
sh tools/mkimage-single.sh "$tmp/s.img" "$tmp/efi" >/dev/null
ok "single-file image: \\timeprobe\\id names its partition" id_names_partition "$tmp/s.img"
make_image "$tmp/c.img" seed1
make_image "$tmp/d.img" seed1
ok "one TIMEPROBE_IMAGE_ID: the same bytes" cmp "$tmp/c.img" "$tmp/d.img"
make_image "$tmp/e.img" seed2
ok "another TIMEPROBE_IMAGE_ID: another partition GUID" test "$(part_guid "$tmp/c.img")" != "$(part_guid "$tmp/e.img")"
done_testing
