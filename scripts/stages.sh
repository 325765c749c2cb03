# Sourced by the build and CI scripts: `stage NAME COMMAND...` runs a command and prints
# its wall time, so that a step that starts costing minutes shows where; `stage_summary`
# prints every stage's time again at the end. `configure DIR ARGS...` configures a build
# directory with Ninja where it is installed (its schedule keeps both cores busy across
# libraries) unless the directory was configured already, with whatever generator.
ppl_stage_names=()
ppl_stage_seconds=()
stage() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "=== $name" >&2
  "$@" || rc=$?
  local took=$((SECONDS - start))
  ppl_stage_names+=("$name")
  ppl_stage_seconds+=("$took")
  printf '=== %s: %dm%02ds%s\n' "$name" $((took / 60)) $((took % 60)) "$([ $rc = 0 ] || echo " (failed, status $rc)")" >&2
  return $rc
}
stage_summary() {
  local i total=0
  echo "=== wall time by stage" >&2
  for i in "${!ppl_stage_names[@]}"; do
    printf '  %-44s %3dm%02ds\n' "${ppl_stage_names[$i]}" $((ppl_stage_seconds[i] / 60)) $((ppl_stage_seconds[i] % 60)) >&2
    total=$((total + ppl_stage_seconds[i]))
  done
  printf '  %-44s %3dm%02ds\n' "total" $((total / 60)) $((total % 60)) >&2
}
configure() {
  local dir=$1
  shift
  local generator=()
  if [ ! -e "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  cmake -S . -B "$dir" "${generator[@]}" "$@" >/dev/null
}
