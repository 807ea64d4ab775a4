#!/usr/bin/env bash
# check: quick, budget 30 s
# scripts/presets is read by lib.sh's preset parser alone, defaults
# included: on a file written here, the @ROLE lines give the defaults and
# are no presets (need_preset refuses @default, and the list of presets
# leaves them out), a preset's fields and CPUs are read, an unknown one is
# refused listing the others. On the real file, each default names a
# preset, the Makefile's PRESET and STRESS_PRESET are the @default and
# @small lines, no script writes a preset's name as a default of its
# own, and no script but lib.sh reads scripts/presets.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
cat >"$t/presets" <<'EOF'
# a comment: name sockets dies cores threads cpu
@default big
@small tiny
tiny 1 2 2 1 intel
# another
big 2 4 8 2 amd
EOF
parse() { SP_PRESETS=$t/presets bash -c '. "$TOP/scripts/lib.sh"; "$@"' parse "$@"; }
export TOP
[ "$(parse preset_default default)" = big ] && [ "$(parse preset_default small)" = tiny ] ||
	fail "the @ROLE lines: default '$(parse preset_default default)', small '$(parse preset_default small)'"
[ "$(parse preset_names)" = "tiny big " ] || fail "preset_names: '$(parse preset_names)', want 'tiny big '"
[ "$(parse preset_get big)" = "2 4 8 2 amd" ] || fail "preset_get big: '$(parse preset_get big)'"
[ "$(parse preset_cpus big)" = 128 ] && [ "$(parse preset_cpus tiny)" = 4 ] ||
	fail "preset_cpus: big $(parse preset_cpus big), tiny $(parse preset_cpus tiny)"
expect_error 2 "unknown preset '@default'; known presets: tiny big" -- parse need_preset @default
expect_error 2 "unknown preset 'huge'; known presets: tiny big" -- parse need_preset huge

# The real file and its readers.
for role in default small; do
	p=$(preset_default "$role")
	[ -n "$p" ] || fail "scripts/presets has no @$role line"
	(need_preset "$p") || fail "@$role names '$p', which is no preset"
done
mk=$(make -s --no-print-directory -C "$TOP" --eval 'sp-print-presets: ; @echo $(PRESET) $(STRESS_PRESET)' sp-print-presets)
[ "$mk" = "$(preset_default default) $(preset_default small)" ] ||
	fail "the Makefile's PRESET and STRESS_PRESET are '$mk', not the @default and @small of scripts/presets"
own=$(cd "$TOP" && grep -nE "^[^#]*(PRESET|preset)[A-Z_]*( *[?:]?= *|:-)\"?(zen|2s)[0-9a-z-]*" \
	Makefile scripts/*.sh scripts/lib/*.sh tests/*.sh bench/*.sh || true)
[ -z "$own" ] || fail "a preset default written in a script, not read from scripts/presets (preset_default): $own"
readers=$(cd "$TOP" && grep -nE '^[^#]*scripts/presets' scripts/*.sh scripts/lib/*.sh tests/*.sh bench/*.sh |
	grep -v '^scripts/lib.sh:' || true)
[ -z "$readers" ] || fail "scripts/presets read outside lib.sh (use its preset_get, preset_default, preset_names): $readers"
echo "# defaults $(preset_default default) and $(preset_default small), read by the Makefile and the scripts from scripts/presets alone"
