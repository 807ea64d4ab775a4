# sched-placement: the interface. `make` runs the main job, `make check` the tests
# (quick tier; `make check-full` runs them all).
#
# `make help` lists the targets and variables. It prints them from the `##`
# comments in this file (after a target's prerequisites, or a line of its
# own), so a target is documented here once, on its own line.

SHELL := /bin/bash

## Variables (make TARGET VAR=value, or VAR=value make TARGET):
##   PRESET=NAME           the guest's topology, one of scripts/presets (default: its @default, the target's shape)
PRESET ?= $(shell sed -n 's/^@default //p' scripts/presets)
##   ICOUNT=off|SHIFT      the guest's clock: off, the host's wall clock, or guest time made of
##                         instructions, 2^SHIFT ns each (QEMU -icount; scripts/vm.sh)
ICOUNT ?=
export ICOUNT
##   LEDGER=1              make and make bench: the cache ledger's rows (modelled misses and stall,
##                         ledger/README.md); the clock is then icount (ICOUNT, shift 0 unless given)
LEDGER ?= 0
export LEDGER
##   KSELFTEST_PRESET      preset of kselftest and kselftest-repeat (default: PRESET)
KSELFTEST_PRESET ?= $(PRESET)
##   CMD='...'             the command make vm runs in the guest
CMD ?= cat /sys/kernel/debug/sched/features
##   FLAVOR=vm             kernel of make kernel and make vm: vm, debug or kcsan (configs/)
FLAVOR ?= vm
##   KSRC=DIR              a Linux git tree of yours as the base (its HEAD), instead of series/base
##   KERNEL_TARBALL=FILE   a local copy of the pinned base's tarball, checked against series/base
export KSRC KERNEL_TARBALL FLAVOR HOST

##   FEATURE, WORKLOAD     make's A/B: switches (comma list, all on vs all off) and load (scripts/main.sh)
##   HOST=1                make and make bench run on this machine's running kernel, as root, not in a VM:
##                         root, debugfs, the switches and perf checked first, then only host mode's packages
HOST ?= 0
##   SETS='...'            make bench's A/B sets (listed below; bench/sets)
SETS ?=
##   REPS=N                runs per side of each A/B (default: AB_REPS of bench/lib.sh, 12)
REPS ?=
##   RUNS, TESTS, EXCLUDE  make kselftest-repeat: passes, tests to run (default all), tests to leave out
RUNS ?= 20
TESTS ?=
EXCLUDE ?=
##   STRESS_PRESET, STRESS_SECS, STRESS_FLAVOR   make stress: preset (default: @small of scripts/presets), seconds of load, debug or kcsan
STRESS_PRESET ?= $(shell sed -n 's/^@small //p' scripts/presets)
STRESS_SECS ?= 2400
STRESS_FLAVOR ?= debug
##   CHECK_ONLY=REGEX      make check runs only the tests whose printed name matches, in either tier
##   RECORD=DIR            make replot's record, a directory of docs/results
##   DEB_CONFIG=FILE       make deb's starting config (default: /boot/config-$(uname -r))
##   More: the header of the script each target runs (scripts/README.md).
export PRESET

.PHONY: help all main main-check deps deps-auto tree export kernel vm series kunit kselftest kselftest-repeat bench bench-check replot base-vs-series stress jobs deb check check-full tools ledger clean

all: main ## the main job: build, boot PRESET, run the FEATURE A/B, print the table

LEDGER_TOOLS := $(if $(filter 1,$(LEDGER)),ledger)

main: tools $(LEDGER_TOOLS)
	@scripts/main.sh

# make's input, and with HOST=1 this machine, checked before anything is
# installed or built (deps-auto waits for it in host mode).
main-check:
	@scripts/main.sh --check

check: | deps-auto ## the quick tier of the tests, as TAP, ending "N passed, N failed" (tests/README.md)
	@scripts/check.sh quick

check-full: | deps-auto ## every test, both tiers (what CI runs)
	@scripts/check.sh full

deps: ## install the host packages (apt; idempotent; HOST=1: only host mode's, and compare-kernels.sh's for make jobs); other targets do it as needed
	@scripts/deps.sh $(if $(filter 1,$(HOST)),--host)

# Every target that needs the host's tools checks them first: silent and a
# single dpkg query when all is installed, else it installs what is missing
# as make deps does (root or sudo), or says what to install. So `make` and
# `make check` work on a fresh Debian machine without a `make deps` first.
#
# With HOST=1, make and make bench run on a lab machine, which a refused run
# must leave as it was: their checks (the input; root, debugfs, the series'
# switches and perf: scripts/lib/host.sh) are a prerequisite of deps-auto,
# which every build waits for, so nothing is installed or built before
# them, even under make -j; then deps.sh --host installs only what host
# mode runs (a compiler, GSL, rt-tests, dbench, gnuplot), never QEMU.
ifeq ($(HOST),1)
deps-auto: $(if $(filter bench,$(MAKECMDGOALS)),bench-check,$(if $(filter-out all main,$(MAKECMDGOALS)),,main-check))
endif
deps-auto:
	@DEPS_AUTO=1 scripts/deps.sh $(if $(filter 1,$(HOST)),--host)

tree: | deps-auto ## build/linux: the pinned base plus one commit per series/series entry
	@scripts/mktree.sh

export: ## write build/linux's commits back to series/ and the new files (series/README.md)
	@scripts/export.sh

kernel: tree ## build build/kbuild-FLAVOR/arch/x86/boot/bzImage (tinyconfig plus configs/)
	@scripts/build-kernel.sh >/dev/null

vm: kernel ## boot the FLAVOR kernel on PRESET and run CMD
	@scripts/vm.sh -p $(PRESET) -k build/kbuild-$(FLAVOR)/arch/x86/boot/bzImage -- sh -c '$(CMD)'

series: tree ## out/series/: the mail-ready series, signed off by your git identity
	@scripts/mkseries.sh

kunit: tree ## the KUnit suite under tools/testing/kunit/kunit.py (x86_64, QEMU, its .kunitconfig)
	@scripts/kunit-run.sh

kselftest: kernel ## boot KSELFTEST_PRESET and run the series' kselftests with run_kselftest.sh (TAP)
	@d=$$(scripts/build-selftests.sh) && \
	scripts/vm.sh -p $(KSELFTEST_PRESET) -k build/kbuild-vm/arch/x86/boot/bzImage -t 2700 -- "$$d/run_kselftest.sh"

kselftest-repeat: kernel ## the kselftests' flake rate: RUNS passes over TESTS in one boot
	@scripts/kselftest-repeat.sh -p $(KSELFTEST_PRESET) -n $(RUNS) $(addprefix -x ,$(EXCLUDE)) $(TESTS)

bench: bench-check $(if $(filter 1,$(HOST)),,kernel) tools $(LEDGER_TOOLS) ## boot PRESET and run the changelogs' A/B sets, SETS (bench/README.md)
	@REPS='$(REPS)' SETS='$(SETS)' scripts/bench.sh

# make bench's input, checked before the kernel is built.
bench-check:
	@REPS='$(REPS)' SETS='$(SETS)' scripts/bench.sh --check

replot: build/bin/stats ## draw RECORD's plots again from its .raw and .meta, into RECORD (git ignores them)
	@[ -n '$(RECORD)' ] || { echo "error: give RECORD=docs/results/NAME" >&2; exit 2; }
	@bench/replot.sh '$(RECORD)'

base-vs-series: kernel tools ## base kernel against patched kernel, switches at defaults, alternating boots
	@scripts/base-vs-series.sh

stress: tree ## STRESS_FLAVOR kernel on STRESS_PRESET: KUnit, kselftests, STRESS_SECS of churn; fails on a splat or too few decisions of the fit or the bias
	@FLAVOR=$(STRESS_FLAVOR) scripts/stress.sh -k -p $(STRESS_PRESET) -d $(STRESS_SECS)

jobs: ## out/jobs/: LKP jobs and mmtests configs of the A/B sets, for hardware (JOB_SETS, REPS)
	@scripts/jobs.sh

deb: tree ## out/deb/: Debian packages of the patched tree for bare metal, from DEB_CONFIG
	@scripts/deb.sh

tools: build/bin/stats build/bin/sp-stress build/bin/sp-stream build/bin/sp-schbench build/bin/sp-util-duty ## build/bin/: stats, sp-stress, sp-stream, sp-schbench and sp-util-duty (bench/, stress/)

KSFT_PLACEMENT := tools/testing/selftests/sched/placement
STREAM_H := $(KSFT_PLACEMENT)/stream.h

build/bin/sp-stress: stress/sp-stress.c $(KSFT_PLACEMENT)/placement.c $(KSFT_PLACEMENT)/placement.h $(KSFT_PLACEMENT)/switches.h $(STREAM_H) | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $(filter %.c,$^) -lpthread

build/bin/sp-stream: bench/stream.c $(STREAM_H) | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

build/bin/sp-schbench: bench/schbench.c | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lpthread

build/bin/sp-util-duty: bench/util-duty.c | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $<

build/bin/stats: bench/stats.c | deps-auto
	@mkdir -p $(@D)
	@echo '#include <gsl/gsl_cdf.h>' | gcc -E - >/dev/null 2>&1 || \
		{ echo "error: GSL headers not found; run 'make deps' (installs libgsl-dev)" >&2; exit 1; }
	gcc -O2 -Wall -Wextra -Werror -o $@ $< -lgsl -lgslcblas -lm

ledger: build/ledger/libledger.so build/bin/sp-mark build/ledger/test-model build/bin/sp-ledger-known ## the cache ledger: build/ledger/libledger.so (QEMU plugin), build/bin/sp-mark, the machine file's check and the known loads (ledger/README.md)

LEDGER_SRC := ledger/model.c ledger/model.h ledger/mark.h

# The header comes from Debian's qemu source package, checked against
# ledger/qemu-source, and lives in the download cache (ledger/fetch-header.sh).
build/ledger/libledger.so: ledger/ledger.c $(LEDGER_SRC) ledger/qemu-source ledger/fetch-header.sh | deps-auto
	@mkdir -p $(@D)
	@inc=$$(ledger/fetch-header.sh) && \
		echo "gcc -shared -o $@ ledger/ledger.c ledger/model.c (qemu-plugin.h from $$inc)" && \
		gcc -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -I"$$inc" -o $@ \
			ledger/ledger.c ledger/model.c

# test-model --conf FILE checks a machine file, as vm.sh does before a boot
# with LEDGER=1; without arguments it runs the known answers.
build/ledger/test-model: ledger/test-model.c $(LEDGER_SRC) | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ ledger/test-model.c ledger/model.c

build/bin/sp-ledger-known: ledger/known.c | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -pthread -o $@ $<

build/bin/sp-mark: ledger/sp-mark.c ledger/mark.h | deps-auto
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -Werror -o $@ $<

clean: ## remove build/ and out/ (the download cache stays)
	rm -rf build out

help: ## this list: targets and variables, from the Makefile's ## comments
	@awk 'BEGIN { print "Targets:" } \
		/^[a-zA-Z0-9_-]+:.*## / { t = $$0; sub(/:.*/, "", t); d = $$0; sub(/^[^#]*## /, "", d); \
			if (t == "all") t = ""; printf "  make %-17s %s\n", t, d; next } \
		/^## / { v = v substr($$0, 4) "\n" } \
		END { printf "\n%s", v }' $(MAKEFILE_LIST)
	@printf '\nA/B sets of make bench (SETS=...; bench/sets defines them, N is a count):\n'
	@grep -v '^[#@]' bench/sets | grep . | cut -d'|' -f1 | tr -d ' \t' | paste -sd' ' | fold -s -w 100 | sed 's/^/  /'
	@sed -n 's/^@default /  default: /p' bench/sets
	@printf '\nPresets (PRESET=..., scripts/presets): %s\n' "$$(grep -v '^[#@]' scripts/presets | cut -d' ' -f1 | xargs)"
	@sed -n 's/^@\([a-z]*\) /  @\1: /p' scripts/presets
