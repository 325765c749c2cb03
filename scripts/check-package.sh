#!/usr/bin/env bash
# Makes the .deb from a configured and built directory (default build/), installs it with
# apt as a user would (`apt install ./ppl_*.deb`, which pulls its runtime libraries), runs
# the coin example from /usr/share/ppl/examples, checks the manual page and the
# completion, and removes the package again. Run as root (CI's package stage).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
export DEBIAN_FRONTEND=noninteractive
command -v dpkg-shlibdeps >/dev/null || apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
rm -f "$dir"/ppl_*.deb
(cd "$dir" && cpack -G DEB >/dev/null)
deb=$(ls "$dir"/ppl_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libfmt9 libedit2 libstdc++6 zlib1g; do
  [[ $depends == *"$lib"* ]] || { echo "FAIL: $deb does not depend on $lib: $depends"; exit 1; }
done
apt-get install -y -qq "./$deb" >/dev/null
trap 'apt-get remove -y -qq ppl >/dev/null' EXIT
[ "$(command -v ppl)" = /usr/bin/ppl ] || { echo "FAIL: ppl is not /usr/bin/ppl"; exit 1; }
# This machine has the build's packages, so the install cannot show that a fresh one gets
# every library: each library the program loads must come from a package that apt pulls
# for it, one it depends on or one of theirs.
pulled=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
           $(echo "$depends" | tr ',' '\n' | awk '{ print $1 }') | grep -v '^ ' | sort -u)
for lib in $(ldd /usr/bin/ppl | awk '$3 ~ /^\// { print $3 }'); do
  owner=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true)
  owner=${owner%%:*}
  [ -n "$owner" ] && grep -qx "$owner" <<< "$pulled" || { echo "FAIL: ppl loads $lib (package ${owner:-none}), which its dependencies do not pull"; exit 1; }
done
work=$(mktemp -d)
(cd "$work" && ppl infer /usr/share/ppl/examples/coin/coin.ppl /usr/share/ppl/examples/coin/data.csv --quiet -o draws.csv) |
  grep -q '^p  ' || { echo "FAIL: the installed ppl did not print p's posterior"; exit 1; }
[ "$(grep -vc '^#' "$work/draws.csv")" = 4001 ] || { echo "FAIL: the installed ppl's draws file"; exit 1; }
rm -rf "$work"
zcat /usr/share/man/man1/ppl.1.gz | grep -q '^\.TH PPL 1' || { echo "FAIL: the manual page"; exit 1; }
bash -c 'source /usr/share/bash-completion/completions/ppl && complete -p ppl' | grep -q _ppl ||
  { echo "FAIL: the bash completion"; exit 1; }
[ -f /usr/share/doc/ppl/README.md ] && [ -f /usr/share/doc/ppl/docs/tutorial.md ] || { echo "FAIL: the documentation"; exit 1; }
echo "package: $(basename "$deb") installs (Depends: $depends), runs the coin example, has its manual page and completion"
