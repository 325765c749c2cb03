#!/usr/bin/env bash
# Every malformed model tests/errors/NAME.ppl and data file tests/errors/data/NAME.{csv,json}
# must make `ppl check` exit 1 with NAME.expected as the first line of its message
# (file:line:col: error: ...). Run from the case's folder so paths in messages are short.
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
for data in "$dir"/data/*.csv "$dir"/data/*.json; do
  name=$(basename "${data%.*}")
  check_case "$dir/data" "$dir/data/$name.expected" "$ppl" check model.ppl "$(basename "$data")"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
