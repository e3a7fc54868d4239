#!/usr/bin/env bash
# `make bench`: runs every Google Benchmark program of BUILD_DIR/bench (bench_*) and prints one
# table: problem, particles, steps/s, particle-updates/s (or bond-updates/s), threads.
# Usage: scripts/run-bench.sh BUILD_DIR [extra benchmark flags, e.g. --benchmark_filter=MpmStep2D]
# Each program's output is kept in BUILD_DIR/bench/results/NAME.{json,txt,log}.
#
# Counters read from each benchmark (bench/README.md): particles (or points), threads,
# steps_per_second, particle_updates_per_second (or bond_updates_per_s[econd] with bonds). A
# missing steps_per_second is derived as updates/s over particles (or bonds); a missing threads
# counter is read from a "threads:N" part of the benchmark's name.
set -euo pipefail

build=${1:?usage: scripts/run-bench.sh BUILD_DIR [benchmark flags]}
shift
bench_dir="$build/bench"
results="$bench_dir/results"
mkdir -p "$results"
rm -f "$results"/bench_*.json

shopt -s nullglob
programs=("$bench_dir"/bench_*)
if [ ${#programs[@]} -eq 0 ]; then
  echo "no benchmark programs in $bench_dir (build with -DTRIBO_BUILD_BENCH=ON)" >&2
  exit 1
fi

for program in "${programs[@]}"; do
  [ -x "$program" ] && [ -f "$program" ] || continue
  name=$(basename "$program")
  echo "running $name ..." >&2
  if ! "$program" --benchmark_out="$results/$name.json" --benchmark_out_format=json "$@" \
      > "$results/$name.txt" 2> "$results/$name.log"; then
    cat "$results/$name.log" >&2
    echo "$name failed (output in $results/$name.txt)" >&2
    exit 1
  fi
done

/usr/bin/python3 - "$results" <<'PY'
import json, pathlib, re, sys

rows = []
history = []
for path in sorted(pathlib.Path(sys.argv[1]).glob("bench_*.json")):
    text = path.read_text().strip()
    if not text:  # a filter that matched nothing in this program
        continue
    for b in json.loads(text).get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        if "ns_per_row_first10" in b:  # bench_app_history_append: output cost, not a rate
            history.append(b)
            continue
        name = b["name"].replace("/real_time", "")
        name = re.sub(r"/iterations:\d+", "", name)
        count = b.get("particles", b.get("points"))
        bonds = b.get("bonds")
        rate_kind, rate = "particle", b.get("particle_updates_per_second")
        if rate is None:
            rate = b.get("bond_updates_per_second", b.get("bond_updates_per_s"))
            rate_kind = "bond"
        steps = b.get("steps_per_second")
        if steps is None and rate is not None:
            per_step = bonds if rate_kind == "bond" else count
            steps = rate / per_step if per_step else None
        threads = b.get("threads")
        if threads is None:
            m = re.search(r"threads:(\d+)", name)
            threads = int(m.group(1)) if m else None
        rows.append((name, count, steps, rate, rate_kind, threads))

def num(x, fmt):
    return "-" if x is None else format(x, fmt)

header = ("problem", "particles", "steps/s", "updates/s", "threads")
table = [header] + [
    (n, num(c, ".0f"), num(s, ".4g"), num(r, ".3e") + (" bond" if k == "bond" and r is not None else ""),
     "-" if t is None else str(int(t)))
    for n, c, s, r, k, t in rows
]
widths = [max(len(row[i]) for row in table) for i in range(len(header))]
for i, row in enumerate(table):
    print("  ".join(cell.ljust(w) if j == 0 else cell.rjust(w) for j, (cell, w) in enumerate(zip(row, widths))))
    if i == 0:
        print("  ".join("-" * w for w in widths))
for b in history:
    print(f"\nhistory.csv, {b['rows']:.0f} rows appended: {b['ns_per_row_first10']:.0f} ns/row over the first 10%, "
          f"{b['ns_per_row_last10']:.0f} over the last 10% (ratio {b['last_over_first']:.2f}; 1 = flat)")
print("\nupdates/s: particle-updates per second (particles x steps / wall time); 'bond': bond-updates "
      "per second.")
PY
