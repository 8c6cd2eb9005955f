#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the command-line words that tell the appliance which kernel it runs:
#   timeprobe.variant=NAME timeprobe.kconfig=hz:250,preempt:none,nohz:idle
# plus the variant's own kernel words (kernel/variants/NAME.cmdline, with
# @LASTCPU@ replaced by CPUS-1).
#   tools/kconfig-words.sh CONFIG VARIANT CPUS
set -eu
config=$1 variant=${2:-} cpus=${3:-2}
words="timeprobe.variant=${variant:-base}"
if [ -f "$config" ]; then
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$config")
	preempt=unknown
	grep -q '^CONFIG_PREEMPT_NONE=y' "$config" && preempt=none
	grep -q '^CONFIG_PREEMPT_VOLUNTARY=y' "$config" && preempt=voluntary
	grep -q '^CONFIG_PREEMPT=y' "$config" && preempt=full
	grep -q '^CONFIG_PREEMPT_RT=y' "$config" && preempt=rt
	nohz=periodic
	grep -q '^CONFIG_NO_HZ_IDLE=y' "$config" && nohz=idle
	grep -q '^CONFIG_NO_HZ_FULL=y' "$config" && nohz=full
	words="$words timeprobe.kconfig=hz:${hz:-unknown},preempt:$preempt,nohz:$nohz"
fi
extra=$(dirname "$0")/../kernel/variants/$variant.cmdline
if [ -n "$variant" ] && [ -f "$extra" ]; then
	words="$words $(sed "s/@LASTCPU@/$((cpus - 1))/g" "$extra")"
fi
echo "$words"
