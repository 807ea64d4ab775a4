#!/usr/bin/env bash
# Every kselftest of the series can fail (scripts/mutants.sh):
#   docs/results/2026-12-05-kselftest-mutants/run.sh [PRESET] [MUTANT...]
here=$(dirname "$0")
preset=${1:-2s4llc}
shift || true
[ $# -gt 0 ] || set -- interfaces inert fit-first
exec "$here/../../../scripts/mutants.sh" "$here" "$preset" "$@"
