#!/bin/sh
# SPDX-License-Identifier: MIT
# Identities for a disk image: sourced by tools/mkimage.sh and
# tools/mkimage-single.sh after they set ids_from (the input files and
# words). Sets:
#   fat_serial   FAT volume serial, 8 hex digits (mformat -N)
#   disk_guid    GPT disk GUID (sgdisk -U)
#   part_guid    the ESP's unique partition GUID (sgdisk -u 1:...), which the
#                image also carries as \timeprobe\id: the appliance saves
#                only on a partition whose id names it (userland/save.c)
# Every image made gets its own identity, from a random seed, so that two
# sticks, or a stick and a disk made from the same build, never share one.
# TIMEPROBE_IMAGE_ID=SEED fixes the seed: then the same inputs give the same
# bytes (tests/build/repro.t). File times come from SOURCE_DATE_EPOCH, which
# mtools honours; the Makefile exports it.
image_seed=${TIMEPROBE_IMAGE_ID:-$(cat /proc/sys/kernel/random/uuid)}
ids_hash=$( { printf '%s\n' "$image_seed"
	for f in $ids_from; do if [ -f "$f" ]; then sha256sum < "$f"; else echo "$f"; fi; done; } |
	sha256sum | cut -c1-64)
fat_serial=$(echo "$ids_hash" | cut -c1-8)
# RFC 4122 4.4 layout with the version nibble 4 and variant bits 10, as a
# random GUID would have: only its source is not random.
guid() {
	h=$(echo "$ids_hash$1" | sha256sum)
	printf '%s-%s-4%s-8%s-%s\n' "$(echo "$h" | cut -c1-8)" "$(echo "$h" | cut -c9-12)" \
		"$(echo "$h" | cut -c14-16)" "$(echo "$h" | cut -c18-20)" "$(echo "$h" | cut -c21-32)"
}
disk_guid=$(guid disk)
part_guid=$(guid esp)
