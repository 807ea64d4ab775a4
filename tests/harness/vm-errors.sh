#!/usr/bin/env bash
# check: quick, budget 60 s
# Bad input to the VM runner that needs no boot: unknown preset, no QEMU.
. "$(dirname "$0")/../lib.sh"
V=$TOP/scripts/vm.sh
expect_error 2 "unknown preset 'epyc9'.*known presets: 2s4llc" -- "$V" -p epyc9 -- true
QEMU_BIN=/nonexistent/qemu expect_error 1 "QEMU .* not found; run 'make deps'" -- "$V" -- true
VM_CPU=arm expect_error 1 "VM_CPU=arm: use VM_CPU=intel or VM_CPU=amd" -- "$V" -- true
