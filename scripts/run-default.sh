#!/usr/bin/env bash
# `make run`: the default decks (a block sliding down a 30 degree incline, with MPM and with PD),
# a plot of the block's travel against the analytic line, and where everything went.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
tribo="$root/$build/tribo"
cd "$root"
for deck in examples/incline.yaml examples/incline-pd.yaml; do
  [[ -f $deck ]] || continue
  echo "== tribo run $deck"
  "$tribo" run "$deck"
done
/usr/bin/python3 scripts/plot_incline.py out/incline out/incline-pd || echo "(plot skipped: see message above)"
echo
echo "Results:"
for dir in out/incline out/incline-pd; do
  [[ -d $dir ]] || continue
  echo "  $dir/run.pvd        ParaView time series (frames in $dir/frames/)"
  echo "  $dir/history.csv    time histories;  $dir/summary.json  run summary"
done
[[ -f out/incline/incline.png ]] && echo "  out/incline/incline.png   travel along the incline vs 0.5 g (sin th - mu cos th) t^2"
exit 0
