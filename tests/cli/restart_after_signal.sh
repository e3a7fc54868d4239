#!/usr/bin/env bash
# `tribo run DECK --restart DIR` as a user runs it (docs/reliability.md):
#   - SIGTERM and SIGINT stop a run cleanly: exit 128 + N (143, 130), a checkpoint of the step it
#     stopped at, summary.json saying so; the restart completes and its history.csv, run.pvd and
#     last frame are identical, byte for byte, to an uninterrupted run's (one thread), MPM and PD;
#   - a completed run restarted with a larger time.end continues from its last checkpoint and
#     matches an uninterrupted run to the new end;
#   - a restart with another deck, or of a folder that does not exist, exits 1 with a message.
# Usage: bash restart_after_signal.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup restart "$@"

# The shared decks (tests/decks/good/restart_*.yaml), shorter: a block sliding on a rigid floor
# to t = 0.06 s, a pre-cracked plate pulled apart to 3e-4 s, with more frequent checkpoints.
shortened "$source_dir/tests/decks/good/restart_block_on_floor_2d.yaml" "$work/mpm.yaml" \
  'end: 0.1,' 'end: 0.06,' 'checkpoint_every: 0.01' 'checkpoint_every: 0.005'
shortened "$source_dir/tests/decks/good/restart_cracked_plate_2d.yaml" "$work/pd.yaml" \
  'end: 4.0e-4,' 'end: 3.0e-4,' 'checkpoint_every: 4.0e-5' 'checkpoint_every: 3.0e-5'

same_output() {  # label straight other
  local label="$1" a="$2" b="$3" f last
  for f in history.csv run.pvd; do
    cmp -s "$a/$f" "$b/$f" || fail "$label: $f differs from the uninterrupted run's"
  done
  last="$(ls "$a/frames" | grep '^frame_' | tail -n 1)"
  cmp -s "$a/frames/$last" "$b/frames/$last" || fail "$label: $last differs"
}

# Waits (up to 60 s) until DIR/checkpoints holds a checkpoint, so the signal lands mid-run.
wait_for_checkpoint() {
  local i
  for ((i = 0; i < 600; i++)); do
    compgen -G "$1/checkpoints/checkpoint_*.bin" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# Job control: a background job of a script otherwise starts with SIGINT ignored (POSIX), which
# tribo respects, as a program run under nohup should.
set -m
for method in mpm pd; do
  deck="$work/$method.yaml"
  straight="$work/$method-straight"
  "$tribo" run "$deck" -o "$straight" -t 1 -q >/dev/null 2>&1 || fail "$method: the uninterrupted run failed"
  for signal in TERM INT; do
    dir="$work/$method-$signal"
    "$tribo" run "$deck" -o "$dir" -t 1 -q >/dev/null 2>"$work/stderr" &
    pid=$!
    wait_for_checkpoint "$dir" || fail "$method: no checkpoint within 60 s"
    kill -"$signal" "$pid"
    wait "$pid"
    rc=$?
    expected=$((128 + $(kill -l "$signal")))
    if [[ $rc -ne $expected ]]; then
      fail "$method SIG$signal: exit code $rc, expected $expected (a run that finished first?): $(cat "$work/stderr")"
      continue
    fi
    grep -q "stopped by SIG$signal" "$work/stderr" || fail "$method SIG$signal: stderr does not say so: $(cat "$work/stderr")"
    grep -q "\"exit_code\": $expected" "$dir/summary.json" || fail "$method SIG$signal: summary.json lacks exit_code $expected"
    steps="$(sed -n 's/.*"steps": \([0-9]*\).*/\1/p' "$dir/summary.json")"
    [[ -f "$dir/checkpoints/checkpoint_$(printf %09d "$steps").bin" ]] ||
      fail "$method SIG$signal: no checkpoint of the step it stopped at ($steps): $(ls "$dir/checkpoints")"
    "$tribo" run "$deck" --restart "$dir" -t 1 >/dev/null 2>"$work/stderr" || fail "$method SIG$signal: restart failed"
    grep -q "continuing from .*checkpoint_$(printf %09d "$steps").bin" "$work/stderr" ||
      fail "$method SIG$signal: restart did not continue from step $steps: $(cat "$work/stderr")"
    same_output "$method SIG$signal" "$straight" "$dir"
    echo "$method: SIG$signal at step $steps, exit $rc, restarted: output identical to the uninterrupted run"
  done
done
set +m

# Extending a completed run: time.end 0.03 -> 0.06 from the final checkpoint.
sed 's/end: 0.06/end: 0.03/' "$work/mpm.yaml" >"$work/mpm-short.yaml"
dir="$work/mpm-extended"
"$tribo" run "$work/mpm-short.yaml" -o "$dir" -t 1 -q >/dev/null 2>&1 || fail "extension: the short run failed"
"$tribo" run "$work/mpm.yaml" --restart "$dir" -t 1 -q >/dev/null 2>&1 || fail "extension: the restart failed"
same_output "extension" "$work/mpm-straight" "$dir"
echo "mpm: a run to 0.03 s extended to 0.06 s matches the run straight to 0.06 s"

# Another deck: refused with exit 1 and a message; the folder's history is left as it was.
sed 's/static_friction: 0.45/static_friction: 0.5/' "$work/mpm.yaml" >"$work/mpm-other.yaml"
before="$(cat "$dir/history.csv")"
"$tribo" run "$work/mpm-other.yaml" --restart "$dir" -t 1 -q >/dev/null 2>"$work/stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "another deck: exit code $rc, expected 1"
grep -q "another deck" "$work/stderr" || fail "another deck: message: $(cat "$work/stderr")"
[[ "$(cat "$dir/history.csv")" == "$before" ]] || fail "another deck: history.csv was changed"

"$tribo" run "$work/mpm.yaml" --restart "$work/no-such-folder" -q >/dev/null 2>"$work/stderr"
rc=$?
[[ $rc -eq 1 ]] || fail "missing folder: exit code $rc, expected 1"
grep -q "no-such-folder" "$work/stderr" || fail "missing folder: message: $(cat "$work/stderr")"

cli_finish
