#!/usr/bin/env bash
# Side-by-side PD bond-update rate: LAMMPS' peri/pmb (serial) and Tribo's PMB bond pass on the
# same cube (bench/lammps/in.pmb_cube and bench/pd_pmb_cube.cpp: 38^3 points, simple cubic
# lattice of 0.5 mm, horizon 3 spacings, 100 steps of 1e-7 s), in one run, one after the other.
# A bond update is one (point, partner) evaluation; both codes keep full partner lists, so the
# bond counts printed must agree.
# Then the whole processes (issue 17): `lmp -in in.pmb_cube` against `tribo run
# bench/decks/pd_pmb_cube.yaml --threads 1` (set-up, output and the final checkpoint included),
# wall time and peak resident memory of each (GNU time), and their ratios. And, when NAIRNMPM
# names a NairnMPM executable (built outside this tree, bench/README.md), the oblique disks:
# NairnMPM USL+ on bench/nairnmpm/oblique_disks.xml (or NAIRNMPM_DECK) against `tribo run
# bench/decks/mpm_oblique_disks.yaml` (musl, the same time step) on 2 threads, and each on 1
# thread for its 2-thread speed-up: RUNS rounds (default 3) of the four processes back to back
# (NairnMPM 1 thread, Tribo 1, NairnMPM 2, Tribo 2), each run's wall time printed with the load
# average before it, and the medians' ratios.
# Usage: scripts/bench-pd-vs-lammps.sh [BUILD_DIR]    (default: build; needs bench_pd_pmb_cube, tribo)
#   NAIRNMPM=PATH  the NairnMPM executable (bench/README.md); without it the disks are skipped
#   RUNS=N         rounds of the oblique-disks comparison (default 3; the medians are compared)
#   ONLY=mpm       only the oblique disks (no LAMMPS); ONLY=pd only the PD cube
set -euo pipefail
only=${ONLY:-}
runs=${RUNS:-3}

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bench=$build/bench/bench_pd_pmb_cube
if [[ $only != mpm && ! -x $bench ]]; then
  echo "missing $bench: cmake --build $build --target bench_pd_pmb_cube" >&2
  exit 1
fi
if [[ $only != mpm ]] && ! command -v lmp > /dev/null; then
  echo "missing lmp: apt-get install lammps (Debian's build has the PERI package); no side-by-side" >&2
  exit 1
fi
tribo=$build/tribo
timer=/usr/bin/time
[[ -x $timer ]] || { echo "missing /usr/bin/time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
steps=100
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"

if [[ $only != mpm ]]; then
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

# ---- whole processes, one after the other, 1 thread each ------------------------------------
# GNU time: %e wall seconds, %M peak resident set in KiB.
echo
echo "whole process (wall time and peak memory, GNU time; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
(cd "$work" && OMP_NUM_THREADS=1 "$timer" -f '%e %M' -o lmp.time lmp -in "$root/bench/lammps/in.pmb_cube" \
  -log log.whole -screen none)
OMP_NUM_THREADS=1 "$timer" -f '%e %M' -o "$work/tribo.time" "$tribo" run "$root/bench/decks/pd_pmb_cube.yaml" \
  --threads 1 --quiet --output "$work/cube" > "$work/tribo.log"
read -r lmp_wall lmp_kib < "$work/lmp.time"
read -r tribo_wall tribo_kib < "$work/tribo.time"
fi
nairn_line=""
nairn_deck=${NAIRNMPM_DECK:-$root/bench/nairnmpm/oblique_disks.xml}
if [[ $only != pd && -n ${NAIRNMPM:-} && -x ${NAIRNMPM:-} && -f $nairn_deck ]]; then
  cp "$nairn_deck" "$work/nairn.xml"  # -w: NairnMPM writes its archives under the working folder
  echo
  echo "oblique disks, $runs round(s) (wall s, peak KiB, user + system CPU s; load average before each run):"
  for ((r = 1; r <= runs; ++r)); do
    for t in 1 2; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      (cd "$work" && OMP_NUM_THREADS=$t "$timer" -f '%e %M %U %S' -o nairn$t.time "$NAIRNMPM" -np $t -w nairn.xml \
        > nairn$t.log 2>&1)
      read -r nw nk nu ns < "$work/nairn$t.time"
      echo "  round $r, $t thread(s): NairnMPM $nw s $nk KiB, CPU $(python3 -c "print(f'{$nu + $ns:.2f}')") s (load $load)"
      load=$(cut -d' ' -f1 /proc/loadavg)
      rm -rf "$work/disks$t"
      OMP_NUM_THREADS=$t "$timer" -f '%e %M %U %S' -o "$work/disks$t.time" "$tribo" run \
        "$root/bench/decks/mpm_oblique_disks.yaml" --threads $t --quiet --output "$work/disks$t" > "$work/disks$t.log"
      read -r dw dk du ds < "$work/disks$t.time"
      echo "  round $r, $t thread(s): Tribo    $dw s $dk KiB, CPU $(python3 -c "print(f'{$du + $ds:.2f}')") s (load $load)"
      echo "$t $nw $nk $dw $dk" >> "$work/disks.runs"
    done
  done
  nairn_line=$work/disks.runs
fi
python3 - "${lmp_wall:-0}" "${lmp_kib:-0}" "${tribo_wall:-0}" "${tribo_kib:-0}" "$nairn_line" << 'PY'
import statistics, sys
lw, lk, tw, tk = (float(x) for x in sys.argv[1:5])
print(f"{'problem':44s} {'reference':>22s} {'Tribo':>22s} {'speed ratio':>11s} {'memory ratio':>12s}")
if tw > 0:
    print(f"{'PMB cube 38^3, 100 steps, 1 thread':44s} {f'LAMMPS {lw:.2f} s {lk / 1024:.0f} MiB':>22s} "
          f"{f'{tw:.2f} s {tk / 1024:.0f} MiB':>22s} {lw / tw:11.2f} {tk / lk:12.2f}")
if sys.argv[5].strip():
    # Medians over the rounds, each column on its own.
    rows = [[float(x) for x in line.split()] for line in open(sys.argv[5])]
    med = {t: [statistics.median(r[k] for r in rows if r[0] == t) for k in range(1, 5)] for t in (1, 2)}
    (n1, nk1, d1, dk1), (n2, nk2, d2, dk2) = med[1], med[2]
    for t, nw, nk, dw, dk in ((1, n1, nk1, d1, dk1), (2, n2, nk2, d2, dk2)):
        print(f"{f'oblique disks, {t} thread(s), median':44s} {f'NairnMPM {nw:.2f} s {nk / 1024:.0f} MiB':>22s} "
              f"{f'{dw:.2f} s {dk / 1024:.0f} MiB':>22s} {nw / dw:11.2f} {dk / nk:12.2f}")
    print(f"2-thread speed-up: NairnMPM {n1 / n2:.2f}, Tribo {d1 / d2:.2f}")
else:
    print("oblique disks against NairnMPM: skipped (set NAIRNMPM to its executable, bench/README.md)")
print("speed ratio: reference wall time / Tribo's (> 1: Tribo faster); memory ratio: Tribo's peak / "
      "the reference's (< 1: Tribo smaller)")
PY
