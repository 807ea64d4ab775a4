#!/usr/bin/env bash
# check: quick, budget 60 s
# Bad input to the VM runner that needs no boot: unknown preset, no QEMU,
# an unknown CPU vendor, a count of boot CPUs out of range, a bad ICOUNT.
. "$(dirname "$0")/../lib.sh"
V=$TOP/scripts/vm.sh
expect_error 2 "unknown preset 'epyc9'.*known presets: 2s4llc" -- "$V" -p epyc9 -- true
QEMU_BIN=/nonexistent/qemu expect_error 1 "QEMU .* not found; run 'make deps'" -- "$V" -- true
VM_CPU=arm expect_error 1 "VM_CPU=arm: use VM_CPU=intel or VM_CPU=amd" -- "$V" -- true
expect_error 1 "-c 0: give the CPUs to boot with, 1 to 16" -- "$V" -p 2s4llc -c 0 -- true
expect_error 1 "-c 65: give the CPUs to boot with, 1 to 64 .*zen3" -- "$V" -p zen3 -c 65 -- true
expect_error 1 "-c x: give the CPUs to boot with" -- "$V" -c x -- true

# ICOUNT: off or a shift 0 to 10; refused before anything boots.
ICOUNT=abc expect_error 1 "ICOUNT=abc: want off .* or a shift 0 to 10" -- "$V" -- true
ICOUNT=11 expect_error 1 "ICOUNT=11: want off" -- "$V" -- true
ICOUNT=auto expect_error 1 "ICOUNT=auto: want off" -- "$V" -- true
# An existing file stands in for the kernel: the refusal comes before the boot.
ICOUNT=0 ACCEL=kvm expect_error 1 "ICOUNT=0: icount needs TCG, and this run uses KVM; use ICOUNT=off or ACCEL=tcg" -- "$V" -k "$TOP/README.md" -- true
