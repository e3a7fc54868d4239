#!/usr/bin/env bash
# Side-by-side PD bond-update rate: LAMMPS' peri/pmb (serial) and Tribo's PMB bond pass on the
# same cube (bench/lammps/in.pmb_cube and bench/pd_pmb_cube.cpp: 38^3 points, simple cubic
# lattice of 0.5 mm, horizon 3 spacings, 100 steps of 1e-7 s), in one run, one after the other.
# A bond update is one (point, partner) evaluation; both codes keep full partner lists, so the
# bond counts printed must agree.
# Usage: scripts/bench-pd-vs-lammps.sh [BUILD_DIR]    (default: build; needs bench_pd_pmb_cube)
set -euo pipefail

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bench=$build/bench/bench_pd_pmb_cube
if [[ ! -x $bench ]]; then
  echo "missing $bench: cmake --build $build --target bench_pd_pmb_cube" >&2
  exit 1
fi
if ! command -v lmp > /dev/null; then
  echo "missing lmp: apt-get install lammps (Debian's build has the PERI package)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
steps=100
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"

(cd "$work" && OMP_NUM_THREADS=1 lmp -in "$root/bench/lammps/in.pmb_cube" -log log.lammps \
  -screen none)
lmp_bonds=$(awk '/total # of bonds/ {print $NF}' "$work/log.lammps")
lmp_loop=$(awk '/^Loop time of/ {print $4}' "$work/log.lammps")
lmp_pair=$(awk '$1 == "Pair" && $2 == "|" {print $5}' "$work/log.lammps")

OMP_NUM_THREADS=1 "$bench" --benchmark_filter='BM_PmbCube/[12]/' --benchmark_format=json \
  > "$work/tribo.json" 2> /dev/null

python3 - "$work/tribo.json" "$lmp_bonds" "$lmp_loop" "$lmp_pair" "$steps" << 'PY'
import json, sys
path, lmp_bonds, lmp_loop, lmp_pair, steps = sys.argv[1:]
lmp_bonds, lmp_loop, lmp_pair, steps = int(lmp_bonds), float(lmp_loop), float(lmp_pair), int(steps)
lmp_rate = lmp_bonds * steps / lmp_loop
rows = [("LAMMPS peri/pmb (loop)", 1, lmp_bonds, lmp_loop, lmp_rate),
        ("LAMMPS peri/pmb (pair only)", 1, lmp_bonds, lmp_pair, lmp_bonds * steps / lmp_pair)]
for b in json.load(open(path))["benchmarks"]:
    threads = int(b["name"].split("/")[1])
    rows.append((f"Tribo PMB", threads, int(b["bonds"]), b["real_time"], b["bond_updates_per_s"]))
print(f"{'code':30s} {'threads':>7s} {'bonds':>9s} {'time (s)':>9s} {'bond updates/s':>15s} "
      f"{'vs LAMMPS':>9s}")
for name, threads, bonds, t, rate in rows:
    print(f"{name:30s} {threads:7d} {bonds:9d} {t:9.2f} {rate:15.3e} {rate / lmp_rate:9.2f}")
if any(r[2] != lmp_bonds for r in rows):
    print("warning: the bond counts differ", file=sys.stderr)
PY
