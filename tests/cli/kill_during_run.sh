#!/usr/bin/env bash
# SIGKILL at any moment (docs/reliability.md): a run killed with kill -9 leaves every frame it
# wrote readable (run.pvd lists only complete frames; VTK itself reads each one), and restarting it
# with `tribo run DECK --restart DIR` until it completes gives output identical, byte for byte, to
# a run that was never interrupted (one thread), for MPM and for PD. Each run is killed three times
# at random moments (printed, to reproduce a failure), so that over many CI runs the kills land
# before the first checkpoint, while frames or checkpoints are being written, and between them.
# Usage: bash kill_during_run.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup kill "$@"

# The shared decks (tests/decks/good/restart_*.yaml): a block sliding on a rigid floor with
# Coulomb friction and mu_s > mu_k, and a pre-cracked PMB plate pulled apart; ~3700 and ~900 steps,
# 2-3 s each, as they are.
cp "$source_dir/tests/decks/good/restart_block_on_floor_2d.yaml" "$work/mpm.yaml"
cp "$source_dir/tests/decks/good/restart_cracked_plate_2d.yaml" "$work/pd.yaml"

# Every frame file in DIR/frames and every DataSet of DIR/run.pvd loads in VTK without error.
cat >"$work/frames_readable.py" <<'EOF'
import glob, os, sys
import xml.etree.ElementTree as ET
from vtkmodules.vtkCommonCore import vtkCommand
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
run = sys.argv[1]
bad = []
def readable(path):
    # Particle frames hold points; a surface mesh (contact pairs, cracks) may be empty.
    particles = os.path.basename(path).startswith("frame_")
    messages = []
    reader = vtkXMLUnstructuredGridReader()
    reader.AddObserver(vtkCommand.ErrorEvent, lambda *a: messages.append(a))
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    return not messages and grid is not None and (grid.GetNumberOfPoints() > 0 or not particles)
frames = sorted(glob.glob(os.path.join(run, "frames", "*.vtu")))
for f in frames:
    if not readable(f):
        bad.append(f"{f}: not a readable frame")
if os.path.exists(os.path.join(run, "run.pvd")):
    for ds in ET.parse(os.path.join(run, "run.pvd")).getroot().iter("DataSet"):
        f = os.path.join(run, ds.get("file"))
        if not os.path.exists(f):
            bad.append(f"run.pvd lists missing {f}")
for b in bad:
    print(b, file=sys.stderr)
print(f"{len(frames)} frames readable" if not bad else f"{len(bad)} problems")
sys.exit(1 if bad else 0)
EOF

now() { date +%s.%N; }

for method in mpm pd; do
  deck="$work/$method.yaml"
  straight="$work/$method-straight"
  killed="$work/$method-killed"
  t0=$(now)
  "$tribo" run "$deck" --output "$straight" --threads 1 --quiet >/dev/null 2>&1 || fail "$method: the uninterrupted run failed"
  wall=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')

  for k in 1 2 3; do
    # Each kill after a random 10% to 35% of the uninterrupted run's wall time, counted from the
    # start of this (fresh or restarted) process: start-up, frames, checkpoints and steps alike.
    r=$RANDOM  # here, not in the $( ) subshell, whose RANDOM would repeat the parent's next value
    delay=$(awk -v w="$wall" -v r="$r" 'BEGIN { printf "%.3f", w * (0.1 + 0.25 * r / 32767) }')
    if [[ $k -eq 1 ]]; then args=(--output "$killed"); else args=(--restart "$killed"); fi
    "$tribo" run "$deck" "${args[@]}" --threads 1 --quiet >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    if kill -9 "$pid" 2>/dev/null; then outcome="killed"; else outcome="finished first"; fi
    wait "$pid" 2>/dev/null
    cps=$(ls "$killed/checkpoints" 2>/dev/null | tr '\n' ' ')
    printf '%s: kill %d after %.2f s (%s); checkpoints: %s\n' "$method" "$k" "$delay" "$outcome" "${cps:-none}"
    if [[ -d "$killed/frames" ]]; then
      /usr/bin/python3 "$work/frames_readable.py" "$killed" || fail "$method: unreadable output after kill $k"
    fi
  done

  "$tribo" run "$deck" --restart "$killed" --threads 1 --quiet >"$work/restart.log" 2>&1
  rc=$?
  [[ $rc -eq 0 ]] || fail "$method: the final restart exited $rc: $(cat "$work/restart.log")"
  for f in history.csv run.pvd; do
    cmp -s "$straight/$f" "$killed/$f" || fail "$method: $f differs from the uninterrupted run's"
  done
  # Every frame of the uninterrupted run, the last one included, byte for byte.
  n=0
  for f in "$straight"/frames/*.vtu; do
    n=$((n + 1))
    cmp -s "$f" "$killed/frames/$(basename "$f")" || fail "$method: $(basename "$f") differs"
  done
  [[ $n -gt 10 ]] || fail "$method: only $n frames"
  echo "$method: history.csv, run.pvd and $n frames identical to the uninterrupted run"
done

cli_finish
