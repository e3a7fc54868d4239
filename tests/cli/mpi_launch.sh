#!/usr/bin/env bash
# `mpirun -np N tribo run DECK` (docs/parallel.md): the incline example, shortened, on 2 and 3
# processes writes one output folder whose history matches the one-process run's within 1e-9
# relative (issue 16), whose summary records the processes, and whose frames are .pvtu indexes of
# one piece per process listed in run.pvd; the same run again repeats its history bit for bit; a
# run killed on 2 processes and restarted there ends with the uninterrupted history bit for bit, and
# continued on 3 processes or on one within 1e-6 of it; the same for a PD deck (on 3). Subcommands other than run and
# validate on several processes are refused;
# `tribo validate` gives the one-process results. Skipped (passes,
# saying so) where mpiexec is absent.
# Usage: bash mpi_launch.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup mpi-launch "$@"

if ! command -v mpiexec >/dev/null; then
  echo "mpiexec not found: skipped"
  cli_finish
  exit
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
# Whether two history files agree within 1e-9 of each column's largest magnitude: a process count
# changes only the order of sums (round-off), which 1e-9 leaves room for and a wrong halo, a missing
# copy or a double count does not.
# An optional third argument replaces 1e-9 (the long MPM restart below).
same_history() {
  /usr/bin/python3 - "$1" "$2" "${3:-1e-9}" <<'EOF'
import csv, sys
one = list(csv.reader(open(sys.argv[1])))
many = list(csv.reader(open(sys.argv[2])))
tolerance = float(sys.argv[3])
assert one[0] == many[0], "columns differ"
assert len(one) == len(many) and len(one) > 3, f"{len(one)} rows against {len(many)}"
for c, name in enumerate(one[0]):
    scale = max(abs(float(r[c])) for r in one[1:]) or 1.0
    for r1, rn in zip(one[1:], many[1:]):
        d = abs(float(r1[c]) - float(rn[c]))
        assert d <= tolerance * scale, f"{name} at t = {r1[0]}: {r1[c]} against {rn[c]}"
EOF
}

# The block in the middle of the floor: the cut between 2 processes goes through it and its contact.
deck="$work/incline.yaml"
shortened "$source_dir/examples/incline.yaml" "$deck" "time: {end: 0.4, cfl: 0.4}" "time: {end: 0.02, cfl: 0.4}" \
  "every: 0.01" "every: 0.005" "min: [0.1, 0.1], max: [0.2, 0.15]" "min: [0.45, 0.1], max: [0.55, 0.15]"

timeout 120 "$tribo" run "$deck" --quiet --output "$work/one" >"$work/one.log" 2>&1 || fail "one process: $(tail -c 400 "$work/one.log")"
for n in 2 3; do
  out="$work/p$n"
  timeout 300 mpiexec -n $n "$tribo" run "$deck" --output "$out" >"$work/p$n.log" 2>"$work/p$n.err"
  status=$?
  [[ $status -eq 0 ]] || { fail "$n processes: exit $status: $(tail -c 600 "$work/p$n.err")"; continue; }
  count=$(grep -c "on $n processes" "$work/p$n.log")
  [[ $count -eq 1 ]] || fail "$n processes: expected one report naming $n processes, got $count"
  grep -q "\"processes\": $n" "$out/summary.json" || fail "$n processes: summary.json does not record them"
  [[ -f "$out/frames/frame_000001.pvtu" ]] || fail "$n processes: no frames/frame_000001.pvtu"
  pieces=$(ls "$out/frames" | grep -c '^frame_000001_p[0-9]*\.vtu$')
  [[ $pieces -eq $n ]] || fail "$n processes: $pieces pieces of frame 1, expected $n"
  grep -q 'frames/frame_000001.pvtu' "$out/run.pvd" || fail "$n processes: run.pvd does not list the .pvtu"
  same_history "$work/one/history.csv" "$out/history.csv" || fail "$n processes: history differs from one process"
done
# A fixed process count repeats bit for bit.
timeout 300 mpiexec -n 2 "$tribo" run "$deck" --quiet --output "$work/again" >/dev/null 2>&1 || fail "second 2-process run failed"
cmp -s "$work/p2/history.csv" "$work/again/history.csv" || fail "2 processes: history not repeatable bit for bit"

# Kill and restart on 2 processes: SIGTERM to mpiexec reaches every process, which stop together
# after writing their checkpoints (one per process, and the manifest); the restart on 2 processes
# ends with the uninterrupted run's history bit for bit.
long="$work/long.yaml"
shortened "$deck" "$long" "time: {end: 0.02, cfl: 0.4}" "time: {end: 0.15, cfl: 0.4}"
timeout 300 mpiexec -n 2 "$tribo" run "$long" --quiet --output "$work/whole" >/dev/null 2>&1 || fail "uninterrupted 2-process run failed"
mpiexec -n 2 "$tribo" run "$long" --quiet --output "$work/cut" >"$work/cut.log" 2>&1 &
launcher=$!
# Until the run is under way, at most 10 s: two history rows after the first (the history is
# appended by the stepping thread as it goes; the frames are written by a background thread and
# could appear only after this short run had ended, and the kill then came too late: 2 runs of 7
# at stop 24).
for _ in $(seq 1 100); do
  [[ -f "$work/cut/history.csv" && $(wc -l <"$work/cut/history.csv") -ge 4 ]] && break
  sleep 0.05
done
kill -TERM $launcher
wait $launcher
grep -q "stopped by SIGTERM" "$work/cut.log" || fail "the killed run did not stop on SIGTERM: $(tail -c 400 "$work/cut.log")"
[[ -f "$work/cut/checkpoints/manifest.json" ]] || fail "no checkpoint manifest after the kill"
for r in 0 1; do
  ls "$work/cut/checkpoints/p$r"/checkpoint_*.bin >/dev/null 2>&1 || fail "no checkpoint of process $r"
done
cp -r "$work/cut" "$work/cut3"
cp -r "$work/cut" "$work/cut1"
timeout 300 mpiexec -n 2 "$tribo" run "$long" --quiet --restart "$work/cut" >"$work/restart.log" 2>&1 ||
  fail "restart on 2 processes failed: $(tail -c 400 "$work/restart.log")"
cmp -s "$work/whole/history.csv" "$work/cut/history.csv" || fail "killed and restarted history differs from the uninterrupted one"
# The same checkpoints continued on 3 processes (since stop 24 MPM takes another count, as PD:
# each process takes its share of the pieces, the particles are distributed afresh): within 1e-6
# of the uninterrupted run. Not 1e-9: from the restart every nodal sum at the block's contact adds
# its particles in another order, and this deck's uninterrupted runs on one and on 2 processes
# (the same reordering from the start, over the same 0.15 s) differ by up to 6e-7 of a column's
# largest value (measured at stop 24: energy.total at 0.15 s; velocity.block.y 3e-7). A share of
# the run's sums lost in the restore (the frictional work before the kill, a sizeable part of the
# column's largest value) or counted twice would miss by far more.
# On one process the same: it takes every piece; the history within 1e-6 as well, and a second
# --restart there, after it has written its own checkpoint, continues from that one.
timeout 300 mpiexec -n 3 "$tribo" run "$long" --restart "$work/cut3" >"$work/restart3.log" 2>&1 ||
  fail "MPM restart of 2 processes' checkpoints on 3 failed: $(tail -c 400 "$work/restart3.log")"
grep -q "written by 2 processes" "$work/restart3.log" || fail "the MPM restart on 3 does not say it took 2 processes' pieces"
same_history "$work/whole/history.csv" "$work/cut3/history.csv" 1e-6 || fail "MPM restarted on 3 processes differs from the uninterrupted run"
timeout 300 "$tribo" run "$long" --restart "$work/cut1" >"$work/restart1.log" 2>&1 ||
  fail "MPM restart of 2 processes' checkpoints on one failed: $(tail -c 400 "$work/restart1.log")"
grep -q "written by 2 processes" "$work/restart1.log" || fail "the MPM restart on one does not say it took 2 processes' pieces"
same_history "$work/whole/history.csv" "$work/cut1/history.csv" 1e-6 || fail "MPM restarted on one process differs from the uninterrupted run"
timeout 300 "$tribo" run "$long" --restart "$work/cut1" >"$work/again1.log" 2>&1 ||
  fail "a second restart on one process failed: $(tail -c 400 "$work/again1.log")"
grep -q "written by 2 processes" "$work/again1.log" && fail "the second restart on one process took the old pieces again"
same_history "$work/whole/history.csv" "$work/cut1/history.csv" 1e-6 || fail "MPM continued twice on one process differs from the uninterrupted run"

# A run that goes unstable on one process stops on all: exit 3, one message naming the process
# and the particle, and the last good step written (history row, frame, checkpoints).
fly="$work/fly.yaml"
shortened "$deck" "$fly" "velocity: [0, 0]
  - {name: floor" "velocity: [40, 0]
  - {name: floor"
timeout 120 mpiexec -n 2 "$tribo" run "$fly" --quiet --output "$work/fly" >"$work/fly.out" 2>"$work/fly.err"
[[ $? -ne 0 ]] || fail "a block leaving the grid on 2 processes exited 0"
count=$(grep -c "run stopped: .*process [01]: particle .* left the grid" "$work/fly.err")
[[ $count -eq 1 ]] || fail "expected one message naming the process and the particle, got $count: $(head -c 400 "$work/fly.err")"
grep -q "last good" "$work/fly.out" || fail "the last good step was not written"
[[ -f "$work/fly/checkpoints/manifest.json" ]] || fail "no checkpoints of the last good step"

# PD decks across processes: a breakable block with static friction on a rigid floor (the boxes
# cut the block and its contact), history within 1e-9 of one process on 2 and 3 processes,
# repeatable, and killed and restarted on 2 processes with the uninterrupted history bit for bit.
pd="$work/pd.yaml"
shortened "$source_dir/tests/decks/good/pd_incline_2d.yaml" "$pd" "time: {end: 0.05, cfl: 0.3}" "time: {end: 0.005, cfl: 0.3}" \
  "every: 0.005" "every: 0.0005"
timeout 120 "$tribo" run "$pd" --quiet --output "$work/pd1" >"$work/pd1.log" 2>&1 || fail "PD on one process: $(tail -c 400 "$work/pd1.log")"
for n in 2 3; do
  timeout 300 mpiexec -n $n "$tribo" run "$pd" --quiet --output "$work/pd$n" >"$work/pd$n.log" 2>&1 ||
    { fail "PD on $n processes: $(tail -c 600 "$work/pd$n.log")"; continue; }
  grep -q "\"processes\": $n" "$work/pd$n/summary.json" || fail "PD on $n processes: summary.json does not record them"
  pieces=$(ls "$work/pd$n/frames" | grep -c '^frame_000001_p[0-9]*\.vtu$')
  [[ $pieces -eq $n ]] || fail "PD on $n processes: $pieces pieces of frame 1, expected $n"
  same_history "$work/pd1/history.csv" "$work/pd$n/history.csv" || fail "PD on $n processes: history differs from one process"
done
timeout 300 mpiexec -n 2 "$tribo" run "$pd" --quiet --output "$work/pd_again" >/dev/null 2>&1 || fail "second PD 2-process run failed"
cmp -s "$work/pd2/history.csv" "$work/pd_again/history.csv" || fail "PD on 2 processes: history not repeatable bit for bit"
pdlong="$work/pdlong.yaml"
shortened "$source_dir/tests/decks/good/pd_incline_2d.yaml" "$pdlong" "every: 0.005" "every: 0.001"
timeout 300 mpiexec -n 2 "$tribo" run "$pdlong" --quiet --output "$work/pdwhole" >/dev/null 2>&1 || fail "uninterrupted PD 2-process run failed"
mpiexec -n 2 "$tribo" run "$pdlong" --quiet --output "$work/pdcut" >"$work/pdcut.log" 2>&1 &
launcher=$!
for _ in $(seq 1 100); do
  [[ -f "$work/pdcut/frames/frame_000002.pvtu" ]] && break
  sleep 0.1
done
kill -TERM $launcher
wait $launcher
grep -q "stopped by SIGTERM" "$work/pdcut.log" || fail "the killed PD run did not stop on SIGTERM: $(tail -c 400 "$work/pdcut.log")"
cp -r "$work/pdcut" "$work/pdcut3"
timeout 300 mpiexec -n 2 "$tribo" run "$pdlong" --quiet --restart "$work/pdcut" >"$work/pdrestart.log" 2>&1 ||
  fail "PD restart on 2 processes failed: $(tail -c 400 "$work/pdrestart.log")"
cmp -s "$work/pdwhole/history.csv" "$work/pdcut/history.csv" || fail "killed and restarted PD history differs from the uninterrupted one"
# The same checkpoints continued on 3 processes (PD takes another count: each process takes its
# share of the pieces and the points are distributed afresh): within 1e-9 of the uninterrupted run.
timeout 300 mpiexec -n 3 "$tribo" run "$pdlong" --restart "$work/pdcut3" >"$work/pdrestart3.log" 2>&1 ||
  fail "PD restart of 2 processes' checkpoints on 3 failed: $(tail -c 400 "$work/pdrestart3.log")"
grep -q "written by 2 processes" "$work/pdrestart3.log" || fail "the PD restart on 3 does not say it took 2 processes' pieces"
same_history "$work/pdwhole/history.csv" "$work/pdcut3/history.csv" || fail "PD restarted on 3 processes differs from the uninterrupted run"

# Subcommands other than run and validate on several processes: refused.
timeout 60 mpiexec -n 2 "$tribo" check "$deck" >"$work/check.out" 2>"$work/check.err"
[[ $? -eq 1 ]] || fail "tribo check on 2 processes did not exit 1"
# One process under mpiexec is an ordinary run.
timeout 120 mpiexec -n 1 "$tribo" check "$deck" >"$work/check" 2>&1 || fail "mpiexec -n 1 tribo check failed: $(head -c 400 "$work/check")"
# `tribo validate` on 2 and 3 processes: an MPM problem runs across them and prints, once, the
# same result and verdict as on one process (six digits: the runs agree to ~1e-13); a PD problem
# (through the same run_example) runs whole on every process and gives the same rows.
for problem in incline-frictionless pd-velocity-weakening; do
  timeout 300 "$tribo" validate "$problem" >"$work/v1.$problem" 2>&1 || fail "validate $problem on one process failed"
  for n in 2 3; do
    timeout 600 mpiexec -n $n "$tribo" validate "$problem" >"$work/v$n.$problem" 2>&1 ||
      fail "validate $problem on $n processes failed: $(tail -c 400 "$work/v$n.$problem")"
    count=$(grep -c "^$problem " "$work/v$n.$problem")
    expected=$(grep -c "^$problem " "$work/v1.$problem")
    [[ $count -eq $expected && $count -gt 0 ]] || fail "validate $problem on $n processes: $count rows, one process has $expected"
    # problem, quantity, reference, result, verdict: the error column may move in its last digits.
    diff <(grep "^$problem " "$work/v1.$problem" | awk '{$(NF-2)=""; print}') \
         <(grep "^$problem " "$work/v$n.$problem" | awk '{$(NF-2)=""; print}') >/dev/null ||
      fail "validate $problem on $n processes differs from one process: $(grep "^$problem " "$work/v$n.$problem" | head -3)"
  done
done
cli_finish "incline on 2 and 3 processes against one, repeatable, killed and restarted on 2, unstable run stopped on all, PD on 2 and 3, killed and restarted on 2 and on 3, check refused, validate on 2 and 3; "
