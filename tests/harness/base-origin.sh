#!/usr/bin/env bash
# check: quick, budget 60 s
# make series names the base by where it came from (base_origin): a commit
# with history gets base-commit:, the pinned Debian import is named in the
# cover letter, and any other history-less commit gets neither.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/base.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
mk() { # dir subject...: a one-file repo whose refs/sp/base is its last commit
	local d=$t/$1 s
	shift
	git init -q "$d"
	for s; do
		echo "$s" >>"$d/f"
		git -C "$d" add f
		git -C "$d" -c user.name=t -c user.email=t@t commit -q -m "$s"
	done
	git -C "$d" update-ref refs/sp/base HEAD
}
pinned="Linux $(base_get VERSION) ($(base_get PACKAGE) $(base_get PKG_VERSION))"
mk pinned "$pinned"
mk history "v7.3" "Linux 7.3.4"
mk shallow "Linux 7.3.4"
for want in pinned history; do
	got=$(base_origin "$t/$want")
	[ "$got" = "$want" ] || fail "base_origin of the $want repo: $got"
done
got=$(base_origin "$t/shallow")
[ "$got" = unknown ] || fail "a history-less commit that is not the pinned import: $got, want unknown"
echo "# pinned import, a commit with history, a history-less commit: pinned, history, unknown"
