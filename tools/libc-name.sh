#!/bin/sh
# SPDX-License-Identifier: MIT
# The libc a C compiler links statically, as a header for the suite's
# fingerprint (userland/libcinfo.c): musl has no version API (no
# gnu_get_libc_version()), so its name and version are taken here, at build
# time, from what the compiler links:
#   1. the package that owns the libc.a the linker used (dpkg), its version
#      without the Debian revision ("musl-dev 1.2.3-1" gives "musl 1.2.3");
#   2. else musl's own dynamic loader beside it, which prints "Version N"
#      when run (only where it runs: the build's own architecture);
#   3. else "musl" with the version unknown.
# Usage: libc-name.sh CC > header (prints #define TP_LIBC and TP_LIBC_FROM).
set -u
cc=${1:?usage: libc-name.sh CC}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-libc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

echo 'int main(void) { return 0; }' > "$tmp/t.c"
# shellcheck disable=SC2086 # CC may be a command with words
liba=$($cc -static -o "$tmp/t" "$tmp/t.c" -Wl,--trace 2>/dev/null | grep '/libc\.a$' | head -n 1)
name= from=
if [ -n "$liba" ] && pkg=$(dpkg -S "$liba" 2>/dev/null | head -n 1 | cut -d: -f1-2) &&
		ver=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null) && [ -n "$ver" ]; then
	name="musl ${ver%-*}"
	from="package ${pkg%%:*} $ver, owner of $(basename "$(dirname "$liba")")/libc.a, at build time"
elif [ -n "$liba" ] && ver=$("$(dirname "$liba")/libc.so" 2>&1 | sed -n 's/^Version //p') &&
		[ -n "$ver" ]; then
	name="musl $ver"
	from="musl's dynamic loader beside the linked libc.a, at build time"
else
	name="musl"
	from="the build could not tell musl's version (no package owns its libc.a)"
fi
printf '#define TP_LIBC "%s"\n#define TP_LIBC_FROM "%s"\n' "$name" "$from"
