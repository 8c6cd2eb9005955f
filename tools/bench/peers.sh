#!/bin/sh
# SPDX-License-Identifier: MIT
# Peer agreement (`make bench`): each probe's figure against the tool people
# trust for it, interleaved, ROUNDS (5) rounds each; the table goes to
# docs/benchmarks.md ("Peer agreement"). The pairs and how each figure is
# read are in tools/bench/peers.py. Peers: perf (linux-perf), stress-ng,
# cyclictest and oslat (rt-tests), a C compiler for the selftests' sleep
# loop and the minimal yield loop (and musl-gcc, to build that loop as the
# probe is built; without it, cc, and the row says so); installed here when
# missing and this is root with apt-get, else a skip line for each pair
# without its peer.
set -eu
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	for p in perf:linux-perf stress-ng:stress-ng cyclictest:rt-tests oslat:rt-tests; do
		command -v "${p%%:*}" >/dev/null 2>&1 ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
				"${p#*:}" >/dev/null 2>&1 || true
	done
fi
exec python3 "$(dirname "$0")/peers.py"
