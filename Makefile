# sched-placement: the interface. `make` runs the main job, `make check` the tests.
#
#   make            fetch the base, assemble the tree, build, boot, show the topology, smoke A/B
#   make check      every test (TAP; ends with "N passed, N failed"; non-zero exit on failure)
#   make deps       install host packages (apt; idempotent)
#   make tree       build/linux = pinned base + series/ (git, one commit per entry)
#   make export     write build/linux commits back to series/ and the overlay files
#   make kernel     build/kbuild-$(FLAVOR)/arch/x86/boot/bzImage   (FLAVOR=vm|debug|kcsan)
#   make vm         boot PRESET and run CMD        (PRESET=zen3|2s4llc|2s8llc|zen3-128, CMD='...')
#   make series     out/series/: mail-ready patches with a cover letter (git am-checked)
#   make kselftest  boot PRESET and run the series' kselftest runner (TAP)
#   make kselftest-repeat   the runner's flake rate: RUNS passes over TESTS (default all,
#                   less EXCLUDE) in one boot of PRESET, a table per test
#   make bench      boot PRESET and run the changelog A/B sets (SETS='fit bias ...', REPS=12)
#   make base-vs-series   base kernel against the patched kernel, defaults untouched
#   make stress     STRESS_FLAVOR kernel (debug|kcsan), STRESS_PRESET, STRESS_SECS of load while switches,
#                   hotplug, affinity and cpusets churn (console must stay clean)
#   make deb        out/deb/: Debian packages of the patched tree for bare metal, with
#                   DEB_CONFIG (default /boot/config-$(uname -r)) plus SCHEDSTATS, DEBUG_FS
#   make clean      remove build/ and out/ (the download cache stays)
#
# KSRC=/path/to/linux-git or KERNEL_TARBALL=/path/to/tarball replace the pinned base.

SHELL := /bin/bash
# zen3 (64 CPUs, 16-CPU LLCs, AMD EPYC-Milan model) is the target shape: a
# boot with a trivial command takes about 55 s under TCG, the kselftest
# runner about 7 min 30 s with the boot (4 min on 2s4llc).
PRESET ?= zen3
KSELFTEST_PRESET ?= $(PRESET)
CMD ?= cat /sys/kernel/debug/sched/features
FLAVOR ?= vm
export KSRC KERNEL_TARBALL FLAVOR

SETS ?=
REPS ?= 12
RUNS ?= 20
TESTS ?=
EXCLUDE ?=
STRESS_PRESET ?= 2s4llc
STRESS_SECS ?= 2400
STRESS_FLAVOR ?= debug
export PRESET

.PHONY: all main deps deps-auto tree export kernel vm series kselftest kselftest-repeat bench base-vs-series stress deb check tools clean

all: main

main: tools
	@scripts/main.sh

deps:
	@scripts/deps.sh

# Every target that needs the host's tools checks them first: silent and a
# single dpkg query when all is installed, else it installs what is missing
# as make deps does (root or sudo), or says what to install. So `make` and
# `make check` work on a fresh Debian machine without a `make deps` first.
deps-auto:
	@DEPS_AUTO=1 scripts/deps.sh

tree: | deps-auto
	@scripts/mktree.sh

export:
	@scripts/export.sh

kernel: tree
	@scripts/build-kernel.sh >/dev/null

vm: kernel
	@scripts/vm.sh -p $(PRESET) -k build/kbuild-$(FLAVOR)/arch/x86/boot/bzImage -- sh -c '$(CMD)'

series: tree
	@scripts/mkseries.sh

kselftest: kernel
	@scripts/vm.sh -p $(KSELFTEST_PRESET) -k build/kbuild-vm/arch/x86/boot/bzImage -t 2700 -- $$(scripts/build-selftests.sh)

kselftest-repeat: kernel
	@scripts/kselftest-repeat.sh -p $(KSELFTEST_PRESET) -n $(RUNS) $(addprefix -x ,$(EXCLUDE)) $(TESTS)

bench: kernel tools
	@REPS=$(REPS) SETS='$(SETS)' scripts/bench.sh

base-vs-series: kernel tools
	@scripts/base-vs-series.sh

stress: tree
	@FLAVOR=$(STRESS_FLAVOR) scripts/stress.sh -k -p $(STRESS_PRESET) -d $(STRESS_SECS)

deb: tree
	@scripts/deb.sh

tools: build/bin/stats build/bin/sp-stress build/bin/sp-stream

build/bin/sp-stress: stress/sp-stress.c | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

build/bin/sp-stream: bench/stream.c | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

build/bin/stats: bench/stats.c | deps-auto
	@mkdir -p $(@D)
	@echo '#include <gsl/gsl_cdf.h>' | gcc -E - >/dev/null 2>&1 || \
		{ echo "error: GSL headers not found; run 'make deps' (installs libgsl-dev)" >&2; exit 1; }
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lgsl -lgslcblas -lm

check: | deps-auto
	@scripts/check.sh

clean:
	rm -rf build out
