#!/usr/bin/env bash
# Issue 16's scaling measurement on one machine: the 10^6-particle 2D MPM deck
# (bench/decks/mpm_block_1m_2d.yaml) or, with `pd`, the 10^6-point 3D PD cube
# (bench/decks/pd_cube_1m_3d.yaml), on 1 process and on 2 processes, one OpenMP thread each, and
# on 1 process with 2 threads for comparison. Prints wall times (of the time loop, summary.json),
# the speed-up and the share of the wall time the busiest process spent exchanging (summary.json
# communication_share).
# Usage: scripts/bench-mpi-scaling.sh [BUILD] [mpm|pd]   (BUILD defaults to build, the problem to mpm)
set -euo pipefail
build="${1:-build}"
case "${2:-mpm}" in
  mpm) deck="$(dirname "$0")/../bench/decks/mpm_block_1m_2d.yaml" ;;
  pd) deck="$(dirname "$0")/../bench/decks/pd_cube_1m_3d.yaml" ;;
  *) echo "problem: mpm or pd" >&2; exit 2 ;;
esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], 0))" "$1" "$2"; }
run() {  # name processes threads
  local out="$work/$1"
  if [[ $2 -eq 1 ]]; then
    OMP_NUM_THREADS=$3 "$build/tribo" run "$deck" --quiet --threads "$3" --output "$out" >/dev/null
  else
    OMP_NUM_THREADS=$3 mpiexec -n "$2" --bind-to none "$build/tribo" run "$deck" --quiet --threads "$3" --output "$out" >/dev/null
  fi
  printf '%-24s wall %7.2f s   exchanging %5.1f%%\n' "$1" "$(field "$out/summary.json" wall_time)" \
    "$(/usr/bin/python3 -c "print(100*$(field "$out/summary.json" communication_share))")"
}
run "1 process x 1 thread" 1 1
run "2 processes x 1 thread" 2 1
run "1 process x 2 threads" 1 2
one=$(field "$work/1 process x 1 thread/summary.json" wall_time)
two=$(field "$work/2 processes x 1 thread/summary.json" wall_time)
/usr/bin/python3 -c "print(f'speed-up 1 -> 2 processes: {$one / $two:.2f}')"
