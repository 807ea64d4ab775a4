#!/usr/bin/env bash
# check: quick, budget 60 s
# make series refuses to write mail-ready patches without a sender who can
# sign them off: no git identity, or a placeholder one (an address under a
# reserved domain, like the one series/ carries). It fails before any work,
# names the fix, and writes nothing. The signed output itself is checked by
# the series stage (series-check.sh mail).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# Identity from git config only, set through the environment so that no
# config file of this machine or clone is read or changed.
ms() { # user.name user.email
	env -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL GIT_CONFIG_COUNT=2 \
		GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$1" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$2" \
		SERIES_OUT="$t/series" "$TOP/scripts/mkseries.sh"
}
expect_error 1 "git has no identity here; run" -- ms "" ""
expect_error 1 "git has no identity here; run" -- ms "Some One" ""
expect_error 1 "is a placeholder .*cannot receive mail" -- ms "Seed c2f68278 maintainers" \
	maintainers@users.noreply.a-seed-c2f68278.example
expect_error 1 "is a placeholder" -- ms check check@localhost
expect_error 1 "is a placeholder" -- ms root "root@(none)"
[ ! -e "$t/series" ] || fail "a refused make series wrote $t/series"
# example.com is reserved too (RFC 2606): only make check's own run, which
# throws its output away, may sign as git's test identity.
expect_error 1 "is a placeholder" -- ms "A U Thor" author@example.com
[ ! -e "$t/series" ] || fail "a refused make series wrote $t/series"
