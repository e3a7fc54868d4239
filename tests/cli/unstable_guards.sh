#!/usr/bin/env bash
# The guards of `tribo run` as a user meets them (docs/reliability.md): a run that goes non-finite,
# whose particles leave the grid, or whose time step is above the stability limit stops with exit
# code 3 and a message naming the step, the time, the particle (or the limit) and the likely
# cause; the output holds the last good step: a history row and a frame at its time, no NaN in
# history.csv, a checkpoint of that step, and summary.json with exit_code 3 and last_good_state.
# Usage: bash unstable_guards.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup guards "$@"

# A neo-Hookean block thrown at 60 m/s onto a rigid floor it sticks to: the elements invert
# (J <= 0, ln J undefined) within a few steps of the impact.
cat >"$work/nan.yaml" <<'EOF'
method: mpm
dimension: 2
time: {end: 0.01, cfl: 0.9}
materials:
  - {name: block, model: neo-hookean, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.45}
  - {name: floor, model: rigid}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.02, 0.021], max: [0.06, 0.04]}}, velocity: [0, -60]}
  - {name: floor, material: floor, geometry: {box: {min: [0, 0.01], max: [0.2, 0.02]}}}
mpm:
  grid: {min: [0, 0], max: [0.2, 0.08], cell: 0.0025}
  shape_function: linear   # inverts within a few steps (GIMP first trips the time-step guard)
  contact:
    # The displacement check stops the whole block at the floor in one step, which inverts the
    # elements; with the position check (the default) the faster wave trips the time-step guard.
    position: {method: displacement}
    pairs:
      - {materials: [block, floor], law: stick}
output:
  every: 0.0005
  history:
    - {quantity: centroid, body: block}
    - {quantity: energy}
EOF
# A block moving at 20 m/s toward the grid's right edge, 0.02 m away: it leaves after ~1 ms.
cat >"$work/leaving.yaml" <<'EOF'
method: mpm
dimension: 2
time: {end: 0.01, cfl: 0.4}
materials:
  - {name: block, model: linear-elastic, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.06, 0.02], max: [0.08, 0.04]}}, velocity: [20, 0]}
mpm:
  grid: {min: [0, 0], max: [0.1, 0.06], cell: 0.0025}
output:
  every: 0.0002
  history:
    - {quantity: centroid, body: block}
EOF
# dt = 1.4e-4 s against the CFL limit cell / c = 0.0025 / 36.7 = 6.8e-5 s.
sed -e 's/time: {end: 0.01, cfl: 0.4}/time: {end: 0.01, dt: 1.4e-4}/' -e 's/velocity: \[20, 0\]/velocity: [0, 0]/' \
  "$work/leaving.yaml" >"$work/dt_mpm.yaml"
# PD: dt = 1e-6 s against the Silling & Askari step of a PMB plate (~1e-7 s).
cat >"$work/dt_pd.yaml" <<'EOF'
method: pd
dimension: 2
thickness: 0.001
time: {end: 1.0e-5, dt: 1.0e-6}
materials:
  - {name: plate, model: pmb, density: 2000, youngs_modulus: 1.0e9, poisson_ratio: 0.3333333333}
bodies:
  - {name: plate, material: plate, geometry: {box: {min: [0, 0], max: [0.005, 0.005]}}}
pd: {spacing: 0.0005}
output:
  history:
    - {quantity: energy}
EOF

# name, then the texts the message must hold.
check_guard() {
  local name="$1" deck="$work/$1.yaml" dir="$work/out-$1" rc message part good_step good_time last_row
  shift
  "$tribo" check "$deck" >/dev/null 2>&1 || fail "$name: the deck itself should be valid"
  "$tribo" run "$deck" -o "$dir" -t 1 -q >"$work/stdout" 2>"$work/stderr"
  rc=$?
  if [[ $rc -ne 3 ]]; then
    fail "$name: exit code $rc, expected 3: $(cat "$work/stderr")"
    return
  fi
  message="$(cat "$work/stderr")"
  [[ "$message" =~ tribo:\ run\ stopped:\ step\ [0-9]+,\ t\ =\ [-0-9.e]+\ s: ]] ||
    fail "$name: the message does not start with the step and time: $message"
  for part in "$@"; do
    [[ "$message" == *"$part"* ]] || fail "$name: the message lacks '$part': $message"
  done
  grep -q '"exit_code": 3' "$dir/summary.json" || fail "$name: summary.json lacks exit_code 3"
  good_step="$(tr -d '\n ' <"$dir/summary.json" | sed -n 's/.*"last_good_state":{"step":\([0-9]*\),"time":\([^}]*\)}.*/\1/p')"
  good_time="$(tr -d '\n ' <"$dir/summary.json" | sed -n 's/.*"last_good_state":{"step":\([0-9]*\),"time":\([^}]*\)}.*/\2/p')"
  if [[ -z "$good_step" ]]; then
    fail "$name: summary.json has no last_good_state"
    return
  fi
  [[ -f "$dir/checkpoints/checkpoint_$(printf %09d "$good_step").bin" ]] ||
    fail "$name: no checkpoint of the last good step $good_step: $(ls "$dir/checkpoints" 2>&1)"
  last_row="$(tail -n 1 "$dir/history.csv")"
  [[ "${last_row%%,*}" == "$good_time" ]] || fail "$name: last history row at ${last_row%%,*}, last good time $good_time"
  grep -qi 'nan\|inf' "$dir/history.csv" && fail "$name: history.csv holds a non-finite value"
  grep -q "timestep=\"$good_time\"" "$dir/run.pvd" || fail "$name: run.pvd has no frame at $good_time"
  echo "$name: exit 3, last good step $good_step (t = $good_time s) written; $(head -c 160 <<<"$message")"
}

check_guard nan "non-finite" "particle " "of body 'block'" "time step too large for the material, or a contact blow-up"
check_guard leaving "left the grid" "particle " "of body 'block'" "enlarge mpm.grid"
check_guard dt_mpm "step 0, t = 0 s" "time step 0.00014 s is above the stability limit" "CFL" "lower time.dt"
check_guard dt_pd "step 0, t = 0 s" "above the stability limit" "Silling & Askari" "time.cfl"

cli_finish
