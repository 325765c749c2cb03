#!/usr/bin/env bash
# Help and usage errors: `ppl --help` lists every command, and every command's --help every
# option with its default (check_help.py), as do `ppl man` and `ppl completion bash`
# (check_manual.py); an unknown option or a bad value is a usage error (exit 2) that names it.
set -euo pipefail
ppl=$1
examples=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$ppl" --help > "$tmp/help"
commands=$(sed -n '/^Subcommands:/,$p' "$tmp/help" | awk 'NR > 1 && NF { print $1 }')
[ "$(echo "$commands" | wc -l)" -ge 10 ]
for c in check simulate infer plan summary loo topics heatmap plot repl diagnose; do
  echo "$commands" | grep -qx "$c" || { echo "FAIL: ppl --help does not list $c"; exit 1; }
done
python3 "$here/check_help.py" "$ppl" $commands
# The manual page and the bash completion, written from the same definitions.
python3 "$here/check_manual.py" "$ppl" "$examples" $commands

usage_error() {  # expected-text command...
  local expected=$1; shift
  set +e
  "$ppl" "$@" > /dev/null 2> "$tmp/err"; local rc=$?
  set -e
  [ "$rc" = 2 ] || { echo "FAIL: ppl $* exited $rc, expected 2"; exit 1; }
  grep -q -- "$expected" "$tmp/err" || { echo "FAIL: ppl $*: the message does not name $expected:"; cat "$tmp/err"; exit 1; }
}
coin="$examples/coin/coin.ppl"
usage_error --bogus infer "$coin" --bogus
usage_error --chains infer "$coin" --chains x
usage_error --chains infer "$coin" --chains 0
usage_error --metric infer "$coin" --metric full
usage_error --collapsed infer "$coin" --collapsed mean
usage_error --target-accept infer "$coin" --target-accept 2
usage_error --draws simulate "$coin" --draws -3
usage_error --repeat diagnose "$coin" --repeat lots
usage_error --top topics "$coin" --top 0
usage_error --pointwise loo "$coin" --pointwise
usage_error nosuchcommand nosuchcommand
usage_error --output plot "$coin" mu
echo "help: all checks passed"
