# Whether an address can receive mail (sender, sign-offs); for mkseries, series-check.
# shellcheck shell=bash

# undeliverable EMAIL: true if EMAIL cannot receive mail: a reserved name
# (RFC 2606 and RFC 6761: .example, .invalid, .test, .localhost, and
# example.com, .net, .org), localhost, or git's "(none)" guess. Such an
# identity cannot sign off a patch.
undeliverable() {
	[[ ${1,,} =~ @(.*\.)?(example|invalid|test|localhost)$|@(.*\.)?example\.(com|net|org)$|@localhost$|\(none\)|^[^@]*$ ]]
}
