#!/usr/bin/env bash
# Bodies from files (docs/deck.md, "shapes"), as a user runs them:
#   every bad deck whose geometry file is malformed (tests/decks/bad/stl_*, points_*) exits 2 and
#   its message names the deck's line and the file with the line (ASCII STL, CSV) or triangle
#   (binary STL), as its first line `# expect: LINE TEXT` says;
#   the good STL and point-cloud decks run (exit 0) and write their frames.
# Usage: bash geometry_files.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup geometry_files "$@"
cd "$source_dir" || exit 1
checked=0
for deck in tests/decks/bad/stl_*.yaml tests/decks/bad/points_*.yaml; do
  checked=$((checked + 1))
  expect_header "$deck" || { fail "$deck: no '# expect: LINE TEXT' line"; continue; }
  line="$expect_line" text="$expect_text"
  stderr="$("$tribo" check "$deck" 2>&1 >/dev/null)"
  rc=$?
  [[ $rc -eq 2 ]] || fail "$deck: exit code $rc, expected 2: $stderr"
  [[ "$stderr" == *"$deck:$line:"* ]] || fail "$deck: no '$deck:$line:' in: $stderr"
  [[ "$stderr" == *"$text"* ]] || fail "$deck: no '$text' in: $stderr"
  # The key, then the file as the user would reach it from here, then the place in it.
  [[ "$stderr" == *"bodies[0].geometry."*": tests/decks/bad/$text"* ]] ||
    fail "$deck: no 'bodies[0].geometry.KIND: tests/decks/bad/$text' in: $stderr"
done
[[ $checked -ge 6 ]] || fail "only $checked geometry-file decks found"

out="$work"
for deck in tests/decks/good/stl_cube_3d.yaml tests/decks/good/points_patch_pd_2d.yaml; do
  name="$(basename "$deck" .yaml)"
  log="$("$tribo" run "$deck" --output "$out/$name" --quiet --threads 1 2>&1)"
  rc=$?
  [[ $rc -eq 0 ]] || fail "$deck: tribo run exit code $rc: $log"
  [[ -f "$out/$name/frames/frame_000000.vtu" ]] || fail "$deck: no first frame"
  # The deck as run names the file by its absolute path and runs again from elsewhere.
  grep -q "$source_dir/tests/decks/good/files/" "$out/$name/deck.yaml" ||
    fail "$deck: the deck as run does not name the file by its absolute path"
  "$tribo" check "$out/$name/deck.yaml" >/dev/null 2>&1 || fail "$out/$name/deck.yaml: does not check"
done
cli_finish "checked $checked bad geometry decks and 2 runs, "
