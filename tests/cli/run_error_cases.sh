#!/usr/bin/env bash
# Every malformed model tests/errors/NAME.ppl and data file tests/errors/data/NAME.{csv,json,R}
# must make `ppl check` exit 1 with NAME.expected as the first line of its message
# (file:line:col: error: ...), and every command line tests/errors/run/NAME.args must exit
# with its status and print NAME.expected first on standard error. Run from the case's
# folder so paths in messages are short.
set -uo pipefail
ppl=$1
dir=$2
fail=0; pass=0
check_case() {  # folder, expected file, command...
  local folder=$1 expected=$2; shift 2
  local out rc
  out=$(cd "$folder" && "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" != 1 ] || [ "$(printf '%s\n' "$out" | head -1)" != "$(cat "$expected")" ]; then
    echo "FAIL $expected (exit $rc)"; printf '  got:      %s\n  expected: %s\n' "$(printf '%s\n' "$out" | head -1)" "$(cat "$expected")"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
for model in "$dir"/*.ppl; do
  name=$(basename "$model" .ppl)
  check_case "$dir" "$dir/$name.expected" "$ppl" check "$name.ppl" empty.json
done
for data in "$dir"/data/*.csv "$dir"/data/*.json "$dir"/data/*.R; do
  name=$(basename "${data%.*}")
  check_case "$dir/data" "$dir/data/$name.expected" "$ppl" check model.ppl "$(basename "$data")"
done
# Command lines: tests/errors/run/NAME.args holds the exit status on its first line and
# the arguments on its second, run from that folder; NAME.stdin, if there is one, is its
# standard input (a REPL script), and otherwise standard input is empty.
for args in "$dir"/run/*.args; do
  name=$(basename "$args" .args)
  status=$(sed -n 1p "$args")
  read -r -a argv <<< "$(sed -n 2p "$args")"
  input=/dev/null
  [ -f "$dir/run/$name.stdin" ] && input="$dir/run/$name.stdin"
  out=$(cd "$dir/run" && "$ppl" "${argv[@]}" 2>&1 >/dev/null < "$input"); rc=$?
  if [ "$rc" != "$status" ] || [ "$(printf '%s\n' "$out" | head -1)" != "$(cat "$dir/run/$name.expected")" ]; then
    echo "FAIL run/$name (exit $rc, expected $status)"; printf '  got:      %s\n  expected: %s\n' "$(printf '%s\n' "$out" | head -1)" "$(cat "$dir/run/$name.expected")"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
# The catalogue (docs/errors.md) is generated from these cases and must be current.
if ! python3 "$dir/../../scripts/error_catalogue.py" --check; then fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
