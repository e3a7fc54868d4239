#!/usr/bin/env bash
# Runs every deck of examples/ (top level) with one thread into OUT, and, given REF (the OUT of an
# earlier run, e.g. of the tree before a refactor), compares the two byte for byte.
#
#   scripts/compare-examples.sh [-b BUILD] OUT [REF]     (BUILD defaults to build)
#   DECKS="incline pd-corotation" scripts/compare-examples.sh OUT REF   (a subset, by file stem)
#
# Compared: history.csv, frames/*.vtu, run.pvd, deck.yaml, the checkpoint written at the end (the
# one summary.json names; entry by entry: every named entry's bytes equal, their order in the file
# free, as the reader finds them by name) and summary.json as JSON (same keys in the same order,
# same values; 1 and 1.0 are one number) without its wall-clock keys (wall_time,
# particle_updates_per_second). Not compared: checkpoints written mid-run, which fall by
# wall-clock time (output.checkpoint_wall), and the console log. No history column or VTU field is
# a wall-clock time. With one thread every run is deterministic (a run repeated gives the same bytes).
# The whole set takes about two minutes on one core. Exit 0 when every deck ran (and, with REF, every
# file matched), 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
build=build
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,7p' "$0"
  exit 2
fi
out=$1
ref=${2:-}
tribo="$build/tribo"
[ -x "$tribo" ] || { echo "no $tribo: build first" >&2; exit 2; }

decks=()
if [ -n "${DECKS:-}" ]; then
  for n in $DECKS; do decks+=("examples/$n.yaml"); done
else
  decks=(examples/*.yaml)
fi

# Two summary.json files hold the same values (as JSON: 1 and 1.0 are one number) under the same
# keys in the same order, the keys that measure wall-clock time left out.
same_summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def load(path):
    items = json.load(open(path), object_pairs_hook=list)
    return [(k, v) for k, v in items if k not in ("wall_time", "particle_updates_per_second")]
sys.exit(0 if load(sys.argv[1]) == load(sys.argv[2]) else 1)
PY
}

# Two checkpoint files (src/tribo/io/checkpoint_file.hpp) hold the same entries with the same bytes.
same_checkpoint() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
def entries(path):
    data = open(path, "rb").read()
    assert data[:8] == b"TRIBOCKP", path
    header, at, out = data[8:16], 16, {}
    while at < len(data) - 8:
        (n,) = struct.unpack_from("<I", data, at); at += 4
        name = data[at:at + n]; at += n
        (size,) = struct.unpack_from("<Q", data, at); at += 8
        out[name] = data[at:at + size]; at += size
    return header, out
sys.exit(0 if entries(sys.argv[1]) == entries(sys.argv[2]) else 1)
PY
}

failures=0
mkdir -p "$out"
for deck in "${decks[@]}"; do
  name=$(basename "$deck" .yaml)
  rm -rf "${out:?}/$name"
  start=$SECONDS
  if ! OMP_NUM_THREADS=1 "$tribo" run -q -t 1 -o "$out/$name" "$deck" >"$out/$name.log" 2>&1; then
    echo "FAIL $name: tribo run exited non-zero (see $out/$name.log)"
    failures=$((failures + 1))
    continue
  fi
  line="ran  $name ($((SECONDS - start)) s)"
  if [ -z "$ref" ]; then
    echo "$line"
    continue
  fi
  a="$ref/$name" b="$out/$name"
  bad=()
  if [ ! -d "$a" ]; then
    bad+=("no reference folder")
  else
    for f in history.csv run.pvd deck.yaml; do cmp -s "$a/$f" "$b/$f" || bad+=("$f"); done
    if ! diff -q <(cd "$a/frames" && ls) <(cd "$b/frames" && ls) >/dev/null; then
      bad+=("frame list")
    else
      for f in "$a"/frames/*.vtu; do cmp -s "$f" "$b/frames/$(basename "$f")" || bad+=("frames/$(basename "$f")"); done
    fi
    same_summary "$a/summary.json" "$b/summary.json" 2>/dev/null || bad+=("summary.json")
    ckp=$(sed -n 's/.*"checkpoint": "\(.*\)".*/\1/p' "$b/summary.json")
    if [ -n "$ckp" ]; then same_checkpoint "$a/$ckp" "$b/$ckp" 2>/dev/null || bad+=("$ckp"); fi
  fi
  if [ ${#bad[@]} -eq 0 ]; then
    nframes=$(ls "$b/frames" | wc -l)
    echo "$line: identical (history, $nframes frames, pvd, deck, summary, final checkpoint)"
  else
    echo "DIFF $name: ${bad[*]:0:8}$([ ${#bad[@]} -gt 8 ] && echo " ... (${#bad[@]} files)")"
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ] || { echo "$failures deck(s) failed or differ"; exit 1; }
