#!/usr/bin/env bash
# check: quick, budget 60 s
# Bad input to the base fetch: each gives one line naming the fix, a non-zero
# exit, and leaves nothing half-written in the cache.
. "$(dirname "$0")/../lib.sh"
private_cache
F=$TOP/scripts/fetch-base.sh
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t" "$SCHED_PLACEMENT_CACHE"'

# No apt on the machine.
APT_GET=/nonexistent/apt-get expect_error 1 'apt-get not found.*KSRC=' -- "$F"
assert_cache_clean

# KSRC that is not a kernel tree; KERNEL_TARBALL missing or with the wrong sha256.
KSRC=$t expect_error 1 'is not a Linux source tree.*KSRC' -- "$F"
KERNEL_TARBALL=$t/none.tar.xz expect_error 1 'does not exist' -- "$F"
echo junk >"$t/bad.tar.xz"
KERNEL_TARBALL=$t/bad.tar.xz expect_error 1 'sha256 mismatch.*KERNEL_TARBALL' -- "$F"
assert_cache_clean

# The pinned version has left the archive: name what is there.
sed 's/^PKG_VERSION=.*/PKG_VERSION=7.3.99-1/' "$TOP/series/base" >"$t/base-gone"
SERIES_BASE=$t/base-gone expect_error 1 'no longer in .*available: [0-9]' -- "$F"
assert_cache_clean

# The archive's package does not match the pinned sha256.
sed 's/^DEB_SHA256=.*/DEB_SHA256=0000000000000000000000000000000000000000000000000000000000000000/' \
	"$TOP/series/base" >"$t/base-sha"
SERIES_BASE=$t/base-sha expect_error 1 'sha256 mismatch' -- "$F"
assert_cache_clean
