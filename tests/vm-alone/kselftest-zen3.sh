#!/usr/bin/env bash
# check: full, budget 1500 s
# Every kselftest on zen3, the target shape (16-CPU LLCs), where each must
# run and pass; alone on the host, as tests/kselftest.sh says.
KS_PRESET=zen3 KS_ALONE=1 exec bash "$(dirname "$0")/../kselftest.sh"
