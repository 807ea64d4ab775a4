#!/usr/bin/env bash
# check: quick, budget 60 s
# deps.sh --host (make deps HOST=1, and make and make bench with HOST=1):
# only what host mode runs, found by running it (a compiler, GSL's headers,
# hackbench, cyclictest, tbench, gnuplot), and, in make deps HOST=1 alone
# (not in make HOST=1's automatic step), compare-kernels.sh's Perl modules
# (File::Which, YAML::PP) and R for make jobs' mmtests path, installed
# without apt's recommends. On Debian and Ubuntu apt installs
# what is missing and nothing else (no QEMU, no VM toolchain, no dpkg query);
# on Fedora, openSUSE, Arch and an unknown family the error names that
# family's install command and packages, and no package tool runs. This
# host's commands are linked into a PATH without those tools; the tools,
# gcc's GSL check, apt-get (which "installs" by adding stand-ins) and the
# other package tools are stand-ins that record their calls; os-release is
# a fake (SP_OS_RELEASE).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir "$t/bin" "$t/fake"
hidden=" gcc cc hackbench cyclictest tbench tbench_srv gnuplot dpkg-query apt-get apt dnf yum zypper pacman sudo perl R "
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	for f in "$d"/*; do
		n=${f##*/}
		case $hidden in *" $n "*) continue ;; esac
		[ -e "$t/bin/$n" ] || ln -s "$f" "$t/bin/$n"
	done
done
export PATH="$t/fake:$t/bin" SP_OS_RELEASE=$t/os-release SUDO=
# have CMD...: a stand-in CMD on PATH; gsl: GSL's headers, as gcc -E sees;
# perl:MODULE: a module the stand-in perl loads.
have() {
	local c
	for c; do
		if [ "$c" = gsl ] || [ "${c#perl:}" != "$c" ]; then
			: >"$t/$c"
		else
			printf '#!/bin/sh\n' >"$t/fake/$c"
			chmod +x "$t/fake/$c"
		fi
	done
}
# The package tools record their calls; apt-get install also "installs",
# unless NOOP_APT is set.
for c in dpkg-query dnf zypper pacman sudo; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$c" "$t" >"$t/fake/$c"
done
cat >"$t/fake/apt-get" <<EOF
#!/bin/bash
echo "apt-get \$*" >>"$t/calls"
[ "\$1" = install ] && [ -z "\${NOOP_APT:-}" ] || exit 0
for p; do
	case \$p in
	rt-tests) c="hackbench cyclictest" ;; dbench) c="tbench tbench_srv" ;;
	gnuplot-nox) c=gnuplot ;; build-essential) c=gcc ;; libgsl-dev) : >"$t/gsl"; continue ;;
	libfile-which-perl) : >"$t/perl:File::Which"; continue ;; libyaml-pp-perl) : >"$t/perl:YAML::PP"; continue ;;
	r-base-core) c=R ;; *) continue ;;
	esac
	for x in \$c; do [ -e "$t/fake/\$x" ] || { printf '#!/bin/sh\n' >"$t/fake/\$x"; chmod +x "$t/fake/\$x"; }; done
done
EOF
chmod +x "$t/fake/"*
# gcc stand-in: -E of GSL's header succeeds once "installed".
printf '#!/bin/sh\n[ -e "%s/gsl" ]\n' "$t" >"$t/gcc.real"
chmod +x "$t/gcc.real"
gcc_on() { ln -sf "$t/gcc.real" "$t/fake/gcc"; }
# perl stand-in: -MMODULE -e 1 succeeds once the module is "installed".
printf '#!/bin/sh\nm=${1#-M}\n[ -e "%s/perl:$m" ]\n' "$t" >"$t/fake/perl"
chmod +x "$t/fake/perl"
reset() { # no tool but gcc and perl, no GSL, no Perl module, no R, no calls
	rm -f "$t/fake/"{hackbench,cyclictest,tbench,tbench_srv,gnuplot,gcc,R} "$t/gsl" "$t/perl:"* "$t/calls"
	gcc_on
}
os() { printf '%s\n' "$@" >"$t/os-release"; }
D=$TOP/scripts/deps.sh

# Debian, all there: silent in auto mode, no package tool.
os 'ID=debian'
reset
have gsl hackbench cyclictest tbench tbench_srv gnuplot
out=$(DEPS_AUTO=1 "$D" --host 2>&1) || fail "all there: exit $?: $out"
[ -z "$out" ] || fail "all there: auto mode printed: $out"
[ ! -e "$t/calls" ] || fail "all there: called $(cat "$t/calls")"

# Ubuntu, rt-tests and dbench missing: apt installs those two, nothing else.
os 'ID=ubuntu' 'ID_LIKE=debian'
reset
have gsl gnuplot
out=$(DEPS_AUTO=1 "$D" --host 2>&1) || fail "rt-tests and dbench missing: exit $?: $out"
printf '%s\n' 'apt-get update -q' 'apt-get install -y -q rt-tests dbench' >"$t/want"
diff "$t/want" "$t/calls" >&2 || fail "Ubuntu, rt-tests and dbench missing: want apt-get install rt-tests dbench only"
echo "# Ubuntu: $(tail -n1 "$t/calls")"
rm "$t/calls"
out=$(DEPS_AUTO=1 "$D" --host 2>&1) && [ -z "$out" ] && [ ! -e "$t/calls" ] ||
	fail "after the install: $out $(cat "$t/calls" 2>/dev/null)"
# No compiler: build-essential, and libgsl-dev, since GSL's check needs one.
reset
rm "$t/fake/gcc"
have hackbench cyclictest tbench tbench_srv gnuplot
DEPS_AUTO=1 "$D" --host >/dev/null 2>&1 || fail "no compiler: exit $?"
grep -qx 'apt-get install -y -q build-essential libgsl-dev' "$t/calls" || fail "no compiler: $(cat "$t/calls")"
# An install that leaves a tool missing is an error, not a silent pass.
reset
have gsl hackbench cyclictest gnuplot perl:File::Which perl:YAML::PP R
NOOP_APT=1 expect_error 1 "installed dbench, yet tbench tbench_srv still not found" -- "$D" --host

# make jobs' mmtests path: compare-kernels.sh's Perl modules and R, in make
# deps HOST=1 alone, without recommends (R's pull in a toolchain); make
# HOST=1's automatic step leaves them.
os 'ID=debian'
reset
have gsl hackbench cyclictest tbench tbench_srv gnuplot
out=$(DEPS_AUTO=1 "$D" --host 2>&1) && [ -z "$out" ] && [ ! -e "$t/calls" ] ||
	fail "automatic step, Perl modules and R missing: $out $(cat "$t/calls" 2>/dev/null)"
"$D" --host >/dev/null 2>&1 || fail "make deps HOST=1, Perl modules and R missing: exit $?"
printf '%s\n' 'apt-get update -q' 'apt-get install -y -q --no-install-recommends libfile-which-perl libyaml-pp-perl r-base-core' >"$t/want"
diff "$t/want" "$t/calls" >&2 || fail "make deps HOST=1: want apt-get install of the Perl modules and R only"
echo "# make deps HOST=1: $(tail -n1 "$t/calls")"
rm "$t/calls"
out=$("$D" --host 2>&1) && [ ! -e "$t/calls" ] || fail "after the install: $out $(cat "$t/calls" 2>/dev/null)"
rm -f "$t/fake/R"
NOOP_APT=1 expect_error 1 "installed r-base-core, yet R still not found" -- "$D" --host
os 'ID=fedora'
reset
have gsl hackbench cyclictest tbench tbench_srv gnuplot
expect_error 1 "host mode needs Perl's File::Which Perl's YAML::PP R, not found here; install them: dnf install perl-File-Which perl-YAML-PP R-core" -- "$D" --host
[ ! -e "$t/calls" ] || fail "Fedora: called $(cat "$t/calls")"

# Other families: the family's command and packages, no package tool run.
reset
have hackbench cyclictest tbench_srv gnuplot
family() { # CASE PATTERN OS-RELEASE-LINE...
	local c=$1 pat=$2
	shift 2
	os "$@"
	rm -f "$t/calls"
	DEPS_AUTO=1 expect_error 1 "$pat" -- "$D" --host
	[ ! -e "$t/calls" ] || fail "$c: called $(cat "$t/calls")"
}
family Fedora "host mode needs GSL headers tbench, not found here; install them: dnf install gsl-devel dbench \(on RHEL, dbench is in EPEL\)" 'ID=fedora'
family Rocky "dnf install gsl-devel dbench" 'ID="rocky"' 'ID_LIKE="rhel centos fedora"'
family openSUSE "zypper install gsl-devel dbench \(dbench is in the benchmark repository\)" 'ID="opensuse-tumbleweed"' 'ID_LIKE="opensuse suse"'
family Arch "pacman -S gsl dbench \(what pacman lacks of these is in the AUR\)" 'ID=arch'
family Gentoo "your distribution's packages of GSL headers tbench \(on Debian: libgsl-dev dbench\)" 'ID=gentoo'
rm "$t/os-release"
family "no os-release" "your distribution's packages of GSL headers tbench"

# make deps HOST=1, and what make HOST=1 installs, is this and nothing more.
out=$(make -n -C "$TOP" --no-print-directory deps HOST=1) && [ "$out" = "scripts/deps.sh --host" ] ||
	fail "make deps HOST=1 runs: $out"
make -n -B -C "$TOP" --no-print-directory HOST=1 | grep -qx 'DEPS_AUTO=1 scripts/deps.sh --host' ||
	fail "make HOST=1 does not run deps.sh --host: $(make -n -B -C "$TOP" HOST=1)"
