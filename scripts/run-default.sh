#!/usr/bin/env bash
# `make run`: the default decks (a block sliding down a 30 degree incline, with MPM and with PD),
# a plot of the block's travel against the analytic line, the pictures of `tribo plot` (history
# plots, particle snapshots and an animated GIF, in OUT/plots/), and where everything went.
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
pictures=()
for dir in out/incline out/incline-pd; do
  [[ -d $dir ]] || continue
  echo "== tribo plot $dir --frames --field velocity --movie gif"
  if listed="$("$tribo" plot "$dir" --frames --field velocity --movie gif)"; then
    while IFS= read -r line; do [[ -n $line ]] && pictures+=("$line"); done <<< "$listed"
  else
    echo "(pictures of $dir skipped: see message above)"
  fi
done
echo
echo "Results:"
for dir in out/incline out/incline-pd; do
  [[ -d $dir ]] || continue
  echo "  $dir/run.pvd        ParaView time series (frames in $dir/frames/)"
  echo "  $dir/history.csv    time histories;  $dir/summary.json  run summary"
done
[[ -f out/incline/incline.png ]] && echo "  out/incline/incline.png   travel along the incline vs 0.5 g (sin th - mu cos th) t^2"
if ((${#pictures[@]} > 0)); then
  echo
  echo "Pictures (tribo plot DIR [--frames --field velocity|stress|damage|material --times T,T --movie gif]):"
  for p in "${pictures[@]}"; do echo "  $p"; done
fi
exit 0
