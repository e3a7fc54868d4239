#!/usr/bin/env bash
# `mpirun -np 2 tribo run DECK` before the solvers run distributed (docs/parallel.md): every
# process exits 1, one message is printed (by rank 0), and no output folder is written, instead of
# two processes racing for the same folder. Skipped (passes, saying so) where mpiexec is absent.
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
deck="$source_dir/tests/decks/good/minimal_mpm_2d.yaml"
timeout 60 mpiexec -n 2 "$tribo" run "$deck" --output "$work/out" >"$work/stdout" 2>"$work/stderr"
status=$?
[[ $status -ne 0 ]] || fail "mpiexec -n 2 tribo run exited 0"
[[ $status -ne 124 ]] || fail "mpiexec -n 2 tribo run hung"
count=$(grep -c "started as one of 2 processes" "$work/stderr")
[[ $count -eq 1 ]] || fail "expected one message naming 2 processes, got $count: $(head -c 400 "$work/stderr")"
[[ ! -e "$work/out" ]] || fail "an output folder was written"
# One process under mpiexec is an ordinary run.
timeout 120 mpiexec -n 1 "$tribo" check "$deck" >"$work/check" 2>&1 || fail "mpiexec -n 1 tribo check failed: $(head -c 400 "$work/check")"
cli_finish "mpiexec -n 2 refused with one message, -n 1 runs; "
