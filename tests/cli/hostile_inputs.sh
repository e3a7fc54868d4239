#!/usr/bin/env bash
# Hostile inputs (issue 14; docs/reliability.md, "What is guaranteed"): decks, files, folders and
# command lines built to make `tribo` hang, crash, run out of memory or report a run it did not do.
# Runs use one thread: OpenMP's barriers crawl on a machine busy with other jobs.
# Every case must end within 30 s (timeout 30: exit 124 is a failure) with the exit code and the
# message it expects:
#   a deck problem:      exit 2, "FILE:LINE:COLUMN: KEY: what" (LINE checked);
#   a run-time problem:  exit 3, "step N, t = T s: cause";
#   a usage or folder problem: exit 1 with the reason.
# The decks of tests/decks/hostile carry their expectation on the first line:
#   # hostile: check|run EXIT LINE|- TEXT
# The cases that need a file system object (a device, a FIFO, a lock held by a running process,
# checkpoints of an earlier run) are built below.
# Usage: bash hostile_inputs.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup hostile "$@"
decks="$source_dir/tests/decks/hostile"
background=""
cli_before_cleanup() { [[ -n "$background" ]] && kill -KILL "$background" 2>/dev/null; }

# sigterm_stops NAME SECONDS: sends SIGTERM to the run in $background, which must exit 143 within
# SECONDS.
sigterm_stops() {
  kill -TERM "$background"
  local start rc
  start=$(date +%s)
  wait "$background"
  rc=$?
  background=""
  [[ $rc -eq 143 ]] || fail "$1: exit $rc, expected 143"
  [[ $(($(date +%s) - start)) -le $2 ]] || fail "$1: took more than $2 s to stop"
}
unset TRIBO_MEMORY_LIMIT

cases=0
# run_case NAME EXPECTED_EXIT TEXT COMMAND...: expect_exit (lib.sh), counted.
run_case() {
  cases=$((cases + 1))
  expect_exit "$@"
}

# ---- the decks of tests/decks/hostile -------------------------------------------------------
for deck in "$decks"/*.yaml; do
  name="$(basename "$deck" .yaml)"
  header="$(head -n 1 "$deck")"
  if [[ ! "$header" =~ ^#\ hostile:\ (check|run)\ ([0-9]+)\ ([0-9]+|-)\ (.*)$ ]]; then
    fail "$deck: no '# hostile: MODE EXIT LINE TEXT' first line"
    continue
  fi
  mode="${BASH_REMATCH[1]}" code="${BASH_REMATCH[2]}" line="${BASH_REMATCH[3]}" text="${BASH_REMATCH[4]}"
  if [[ $mode == check ]]; then
    run_case "$name" "$code" "$text" "$tribo" check "$deck" || continue
    [[ "$stderr" == *"$deck:$line:"* ]] || fail "$name: stderr does not name $deck:$line:COLUMN: $stderr"
    # Limits are refused before any work: the memory estimate in well under a second.
    [[ $name == limit_memory_* && $millis -gt 1000 ]] && fail "$name: refused after $millis ms, not under 1 s"
  else
    run_case "$name" "$code" "$text" "$tribo" run "$deck" --output "$work/$name" --quiet --threads 1 || continue
    # A run-time stop names the step and the time, and the summary says so too.
    [[ "$stderr" =~ step\ [0-9]+,\ t\ =\ [^\ ]+\ s: ]] || fail "$name: stderr names no 'step N, t = T s:': $stderr"
    grep -q "\"exit_code\": $code" "$work/$name/summary.json" 2>/dev/null ||
      fail "$name: summary.json does not record exit code $code"
  fi
done

small="$decks/../good/minimal_mpm_2d.yaml"
# The same deck for runs: 0.05 s in about 80 steps and 5 frames (fsync'd: quick on a loaded machine).
quick="$work/quick.yaml"
sed 's/time: {end: 1}/time: {end: 0.05}/' "$small" >"$quick"
echo 'output: {every: 0.01}' >>"$quick"

# ---- class 5: the deck file ------------------------------------------------------------------
ln -s /dev/zero "$work/zero.yaml"
run_case "file_symlink_dev_zero" 2 "not a regular file" "$tribo" check "$work/zero.yaml"
ln -s /dev/urandom "$work/random.yaml"
run_case "file_symlink_dev_urandom" 2 "not a regular file" "$tribo" check "$work/random.yaml"
mkfifo "$work/fifo.yaml"
run_case "file_fifo" 2 "not a regular file" "$tribo" check "$work/fifo.yaml"
mkdir "$work/folder.yaml"
run_case "file_directory" 2 "it is a directory" "$tribo" check "$work/folder.yaml"
truncate -s 65M "$work/huge.yaml"
run_case "file_over_64_MiB" 2 "a deck is at most 64 MiB" "$tribo" check "$work/huge.yaml"
printf ',x\n' >"$work/comma.yaml"
run_case "file_starts_with_comma" 2 "$work/comma.yaml:1:1: invalid YAML: ',' here belongs" "$tribo" check "$work/comma.yaml"
printf ',' >"$work/comma_only.yaml"
run_case "file_only_a_comma" 2 "$work/comma_only.yaml:1:1: invalid YAML" "$tribo" check "$work/comma_only.yaml"
printf '}\n' >"$work/brace.yaml"
run_case "file_starts_with_brace" 2 "$work/brace.yaml:1:1: invalid YAML" "$tribo" check "$work/brace.yaml"
# run reads the deck the same way.
run_case "file_run_symlink_dev_zero" 2 "not a regular file" "$tribo" run "$work/zero.yaml" -o "$work/never"
[[ -e "$work/never" ]] && fail "file_run_symlink_dev_zero: created the output folder for a deck it refused"
# A tagged number of its own type stays a number.
sed "s/youngs_modulus: 1.0e6/youngs_modulus: !!float 1.0e6/" "$small" >"$work/tagged_float.yaml"
run_case "file_tagged_float_accepted" 0 "" "$tribo" check "$work/tagged_float.yaml"

# ---- class 3: the memory limit, from the environment -------------------------------------------
run_case "limit_memory_env_refused" 2 "(TRIBO_MEMORY_LIMIT)" env TRIBO_MEMORY_LIMIT=1M "$tribo" check "$small"
[[ "$stderr" == *"$small:"*"mpm.grid.cell: the run would need about"* ]] || fail "limit_memory_env_refused: no place or estimate: $stderr"
run_case "limit_memory_env_enough" 0 "" env TRIBO_MEMORY_LIMIT=1G "$tribo" check "$small"
grep -q "memory: about" "$work/stdout" || fail "limit_memory_env_enough: tribo check prints no memory estimate"

# ---- class 6: the command line -----------------------------------------------------------------
run_case "cli_output_empty" 1 "--output needs a folder name" "$tribo" run "$small" --output ""
run_case "cli_restart_empty" 1 "--restart needs the folder" "$tribo" run "$small" --restart ""
run_case "cli_threads_negative" 1 "--threads must be in 0..1024" "$tribo" run "$small" --threads -1 -o "$work/threads"
run_case "cli_threads_huge" 1 "--threads must be in 0..1024" "$tribo" run "$small" --threads 999999 -o "$work/threads"
run_case "cli_validate_threads_negative" 1 "--threads must be in 0..1024" "$tribo" validate --threads -5
run_case "cli_threads_not_a_number" 1 "" "$tribo" run "$small" --threads many
run_case "cli_unknown_option" 1 "" "$tribo" run "$small" --colour
run_case "cli_missing_deck" 1 "deck is required" "$tribo" run
run_case "cli_no_subcommand" 1 "" "$tribo"
run_case "cli_help" 0 "" "$tribo" run --help

# ---- class 6: the output folder ----------------------------------------------------------------
# A second run into a folder a running one holds: exit 1, naming the holder's pid.
long="$work/long.yaml"
sed -e 's/end: 0.0004/end: 0.04/' "$source_dir/examples/oblique-disks.yaml" >"$long"
"$tribo" run "$long" -o "$work/shared" --quiet --threads 1 >/dev/null 2>&1 &
background=$!
for _ in $(seq 100); do
  [[ -s "$work/shared/.tribo.lock" ]] && break
  sleep 0.1
done
run_case "folder_second_run_refused" 1 "is in use by another tribo run (pid $background on" \
  "$tribo" run "$quick" -o "$work/shared" --quiet --threads 1
grep -q "Oblique impact" "$work/shared/deck.yaml" 2>/dev/null ||
  fail "folder_second_run_refused: the first run's deck.yaml is not its own any more"
run_case "folder_restart_while_running_refused" 1 "is in use by another tribo run" \
  "$tribo" run "$long" --restart "$work/shared" --quiet --threads 1
# The first SIGTERM is honoured: checkpoint, exit 143, within seconds.
cases=$((cases + 1))
sigterm_stops "signal_first_sigterm" 10
# ...and the folder is free again for a restart.
run_case "folder_free_after_exit" 0 "" "$tribo" run "$quick" -o "$work/after" --quiet --threads 1

# A fresh run into a folder holding an older run's checkpoints with higher step numbers: they are
# set aside, the run keeps (and reports) its own, and its restart works.
mkdir -p "$work/reused/checkpoints"
printf 'old' >"$work/reused/checkpoints/checkpoint_999999998.bin"
printf 'old' >"$work/reused/checkpoints/checkpoint_999999999.bin"
run_case "folder_old_checkpoints_set_aside" 0 "moved 2 checkpoint(s) of an earlier run" \
  "$tribo" run "$quick" -o "$work/reused" --threads 1
reported="$(sed -n 's/.*"checkpoint": "\(.*\)".*/\1/p' "$work/reused/summary.json")"
[[ -n "$reported" && -f "$work/reused/$reported" ]] ||
  fail "folder_old_checkpoints_set_aside: summary.json reports '$reported', which does not exist"
[[ -f "$work/reused/checkpoints.previous/checkpoint_999999999.bin" ]] ||
  fail "folder_old_checkpoints_set_aside: the older checkpoints were not kept in checkpoints.previous"
run_case "folder_old_checkpoints_restart" 0 "continuing from" "$tribo" run "$quick" --restart "$work/reused" --threads 1

# A stray checkpoint name whose step does not fit a long (it aborted with std::stol).
mkdir -p "$work/stray/checkpoints"
printf 'x' >"$work/stray/checkpoints/checkpoint_99999999999999999999.bin"
run_case "folder_stray_20_digit_checkpoint" 0 "" "$tribo" run "$quick" --restart "$work/stray" --quiet --threads 1
run_case "folder_stray_20_digit_checkpoint_fresh" 0 "" "$tribo" run "$quick" -o "$work/stray" --quiet --threads 1

# ---- class 1: the first SIGTERM during the setup of a large deck -------------------------------
cases=$((cases + 1))
sed -e 's/cell: 0.001/cell: 0.00025/' -e 's/end: 0.0004/end: 0.04/' "$source_dir/examples/oblique-disks.yaml" >"$work/setup.yaml"
"$tribo" run "$work/setup.yaml" -o "$work/setup" --quiet --threads 1 >/dev/null 2>&1 &
background=$!
sleep 0.3
sigterm_stops "signal_sigterm_during_setup" 20

# ---- class 7: the momentum balance of the summary ----------------------------------------------
# balance KEY FILE: the value of "KEY": in summary.json.
balance() { sed -n "s/.*\"$1\": \([^,]*\),*/\1/p" "$2"; }
# Two free disks (total momentum zero): the old figure read 1.0; the balance is round-off.
# 1e-10: the MPM update moves exactly the nodal impulses to the particles, so only the round-off
# of ~1e3 steps of sums over 1e4 particles remains (measured 1e-15).
sed -e 's/end: 0.0004/end: 0.0001/' "$source_dir/examples/oblique-disks.yaml" >"$work/oblique.yaml"
run_case "balance_oblique_disks" 0 "" "$tribo" run "$work/oblique.yaml" -o "$work/oblique" --quiet --threads 1 &&
  { value="$(balance momentum_balance "$work/oblique/summary.json")";
    awk -v v="$value" 'BEGIN { exit !(v != "" && v != "null" && v < 1e-10) }' ||
      fail "balance_oblique_disks: momentum_balance $value, expected < 1e-10"; }
# A block sliding on a rigid floor: the floor's contact impulse is in the balance (the old figure
# read 0.9-1.0). 1e-6: the issue's bound; measured 4e-12.
sed -e 's/end: 0.4/end: 0.03/' "$source_dir/examples/incline.yaml" >"$work/incline.yaml"
run_case "balance_incline_rigid_floor" 0 "" "$tribo" run "$work/incline.yaml" -o "$work/incline" --quiet --threads 1 &&
  { value="$(balance momentum_balance "$work/incline/summary.json")";
    awk -v v="$value" 'BEGIN { exit !(v != "" && v != "null" && v < 1e-6) }' ||
      fail "balance_incline_rigid_floor: momentum_balance $value, expected < 1e-6"; }
# Grid boundary conditions: every node of the grid driven at v_x = 0.3 m/s, a block at rest under gravity
# (the conditions give it its x momentum, gravity its y momentum).
cat >"$work/bc.yaml" <<'EOF'
method: mpm
dimension: 2
time: {end: 0.05, cfl: 0.4}
gravity: [0, -9.81]
materials:
  - {name: block, model: linear-elastic, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
bodies:
  - {name: block, material: block, geometry: {box: {min: [0.1, 0.2], max: [0.2, 0.3]}}}
boundary_conditions:
  - {region: {box: {min: [-1, -1], max: [1, 1]}}, velocity: [0.3, null]}
mpm:
  grid: {min: [0, 0], max: [0.4, 0.4], cell: 0.02}
output:
  every: 0.01
EOF
run_case "balance_boundary_conditions" 0 "" "$tribo" run "$work/bc.yaml" -o "$work/bc" --quiet --threads 1 &&
  { value="$(balance momentum_balance "$work/bc/summary.json")";
    awk -v v="$value" 'BEGIN { exit !(v != "" && v != "null" && v < 1e-10) }' ||
      fail "balance_boundary_conditions: momentum_balance $value, expected < 1e-10"; }
# The old key stays (readers of earlier summaries).
grep -q '"momentum_relative_error"' "$work/incline/summary.json" 2>/dev/null ||
  fail "summary.json lost the key momentum_relative_error"

[[ $cases -ge 40 ]] || fail "only $cases cases"
cli_finish "hostile inputs: $cases cases, "
