#!/usr/bin/env bash
# The wakeup kselftests against three mutants of the wakeup switches:
#   [KSFT_TEST=COLLECTION:TEST] docs/results/2026-12-06-kselftest-mutants/run.sh [PRESET] [MUTANT...]
here=$(dirname "$0")
preset=${1:-2s4llc}
shift || true
[ $# -gt 0 ] || set -- inert narrowed fit-before-idle
exec "$here/../../../scripts/mutants.sh" "$here" "$preset" "$@"
