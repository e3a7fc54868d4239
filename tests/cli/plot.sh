#!/usr/bin/env bash
# `tribo plot` on a short run, as a user runs it: the history plots and the particle snapshots
# (and a GIF) are written into DIR/plots/, each a PNG of the expected size that is not blank
# (tests/cli/check_images.py); the paths are printed; a missing folder, an unknown field and a
# field the frames lack are errors with a message.
# Usage: bash plot.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup plot "$@"
cat > "$work/deck.yaml" <<'DECK'
title: Square meets disk
method: mpm
time: {end: 0.01, cfl: 0.4}
materials:
  - {name: left, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
  - {name: right, youngs_modulus: 1.0e6, poisson_ratio: 0.3}
bodies:
  - {name: a, material: left, geometry: {box: {min: [0.2, 0.2], max: [0.4, 0.4]}}, velocity: [1, 0]}
  - {name: b, material: right, geometry: {disk: {center: [0.52, 0.3], radius: 0.1}}, velocity: [-1, 0]}
mpm:
  grid: {min: [0, 0], max: [1, 0.6], cell: 0.02}
  contact: {pairs: [{materials: [left, right], law: coulomb, friction: 0.2}]}
output:
  every: 0.002
  history:
    - {quantity: centroid, body: a}
    - {quantity: centroid, body: b}
    - {quantity: velocity, body: a}
    - {quantity: contact-force, materials: [left, right]}
    - {quantity: energy}
DECK
run="$work/run"
"$tribo" run "$work/deck.yaml" --output "$run" --quiet --threads 1 >/dev/null || fail "tribo run failed"

printed="$("$tribo" plot "$run" --frames --field stress --times 0,0.006,0.01 --movie gif)"
rc=$?
[[ $rc -eq 0 ]] || fail "tribo plot --frames: exit code $rc"
for q in centroid velocity contact-force energy; do
  [[ "$printed" == *"$run/plots/$q.png"* ]] || fail "tribo plot did not print $run/plots/$q.png: $printed"
done
# figsize 7 x (1.2 + 2 per component) inches at 100 dpi; energy 7 x 6; snapshots 8 inches wide
# and as tall as the run's box needs.
/usr/bin/python3 "$source_dir/tests/cli/check_images.py" "$run/plots/centroid.png@700x520" \
  "$run/plots/velocity.png@700x520" "$run/plots/contact-force.png@700x520" \
  "$run/plots/energy.png@700x600" || fail "history plots"
frames=()
for n in 000000 000003 000005; do frames+=("$run/plots/frame_stress_$n.png@800x*"); done
[[ "$printed" == *"frame_stress_000003.png"* ]] || fail "tribo plot --frames did not print the t = 0.006 s frame: $printed"
/usr/bin/python3 "$source_dir/tests/cli/check_images.py" "${frames[@]}" "$run/plots/stress.gif" ||
  fail "snapshots"
"$tribo" plot "$run" --field material --times 0.01 >/dev/null || fail "--field material"
/usr/bin/python3 "$source_dir/tests/cli/check_images.py" "$run/plots/frame_material_000005.png@800x*" ||
  fail "material snapshot"

stderr="$("$tribo" plot "$work/no-such-run" 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 1 && "$stderr" == *"no-such-run: no such folder"* ]] || fail "missing folder: exit $rc: $stderr"
"$tribo" plot "$run" --field colour >/dev/null 2>&1 && fail "--field colour was accepted"
sed -i 's/^output:/output:\n  fields: [velocity]/' "$work/deck.yaml"
"$tribo" run "$work/deck.yaml" --output "$work/lean" --quiet --threads 1 >/dev/null || fail "lean run"
stderr="$("$tribo" plot "$work/lean" --frames --field stress 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 1 && "$stderr" == *"no 'stress' array; add stress to output.fields"* ]] ||
  fail "a field the frames lack: exit $rc: $stderr"
cli_finish
