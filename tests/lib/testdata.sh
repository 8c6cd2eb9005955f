#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/data as the tests read it. tests/data keeps its small files as they
# are and each set of runs (aa-host2-*.log, fresh-side-*.log, ...) as one
# xz-compressed tar, SET.tar.xz: the logs of a set are alike, so together
# they compress to a tenth. tests/build/data-size.t caps the folder's stored
# bytes (tests/data/README.md says how to add data).
#
#   sh tests/lib/testdata.sh
#       prints a folder (${B:-build}/testdata, relative to the top of the
#       repository, where tests run) holding every file of tests/data under
#       its own name: the plain files as links to them, each archive's logs
#       extracted. An archive is extracted again only when it is newer than
#       its extraction; tests running at once wait for one another (flock),
#       and a file appears by a rename, whole.
#   sh tests/lib/testdata.sh pack SET
#       writes tests/data/SET.tar.xz from tests/data/SET-*.log (the same
#       bytes for the same logs) and removes the logs.
set -eu
cd "$(dirname "$0")/../.."
top=$(pwd)
data=tests/data

pack() {
	set -- $(cd $data && ls "$1"-*.log)
	[ $# -gt 0 ] || { echo "testdata: no $data/$set-*.log to pack" >&2; exit 2; }
	(cd $data && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		--format=gnu -cf - "$@") | xz -9 -T1 -c >"$data/$set.tar.xz.tmp"
	mv "$data/$set.tar.xz.tmp" "$data/$set.tar.xz"
	(cd $data && rm -f "$@")
	echo "testdata: $data/$set.tar.xz: $# logs, $(wc -c <"$data/$set.tar.xz") bytes"
}

# link NAME: OUT/NAME is a link to tests/data/NAME (made when missing or
# wrong, by a rename)
link() {
	[ "$(readlink "$out/$1" 2>/dev/null || true)" = "$top/$data/$1" ] && return 0
	ln -s "$top/$data/$1" "$out/.$1.tmp"
	mv -f "$out/.$1.tmp" "$out/$1"
}

# extract ARCHIVE: its logs into OUT, each by a rename; OUT/.ARCHIVE.list
# names them, and is newer than the archive once done
extract() {
	stamp="$out/.$1.list"
	[ -f "$stamp" ] && [ "$stamp" -nt "$data/$1" ] && return 0
	tmp=$(mktemp -d "$out/.x.XXXXXX")
	xz -dc "$data/$1" | tar -xf - -C "$tmp" --no-same-owner
	for f in $(cd "$tmp" && ls); do
		case $f in
		*[!A-Za-z0-9_.-]*|.*) echo "testdata: $1 holds '$f', not a log name" >&2; exit 1 ;;
		esac
		mv -f "$tmp/$f" "$out/$f"
	done
	rmdir "$tmp"
	xz -dc "$data/$1" | tar -tf - >"$stamp.tmp"
	mv -f "$stamp.tmp" "$stamp"
}

if [ "${1:-}" = pack ]; then
	[ $# -eq 2 ] || { echo "usage: sh tests/lib/testdata.sh pack SET" >&2; exit 2; }
	set=$2
	case $set in
	*[!A-Za-z0-9_-]*|'') echo "testdata: '$set' is not a set name" >&2; exit 2 ;;
	esac
	pack "$set"
	exit 0
fi

out=${B:-build}/testdata
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
for f in $(cd $data && ls); do
	case $f in
	*.tar.xz) extract "$f" ;;
	*) link "$f" ;;
	esac
done
echo "$out"
