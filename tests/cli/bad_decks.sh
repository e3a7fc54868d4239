#!/usr/bin/env bash
# `tribo check` on the deck corpus, as a user runs it:
#   every deck in tests/decks/bad exits 2 and prints FILE:LINE: (its expected line) on stderr;
#   a missing deck exits 2 and names the file; every deck in tests/decks/good exits 0.
# Usage: bash bad_decks.sh /path/to/tribo /path/to/source
set -u
source "$(dirname "$0")/lib.sh"
cli_setup bad_decks "$@"
bad="$source_dir/tests/decks/bad"
good="$source_dir/tests/decks/good"
checked=0

# The line a bad deck must be rejected at: its first line `# expect: LINE TEXT`, or its row
# `FILE LINE TEXT` in EXPECTED.txt (for files that cannot carry a comment, e.g. the empty one).
expected_line() {
  local file="$1"
  if expect_header "$file"; then
    echo "$expect_line"
    return
  fi
  awk -v name="$(basename "$file")" '$1 == name { print $2 }' "$bad/EXPECTED.txt" 2>/dev/null
}

for deck in "$bad"/*.yaml; do
  checked=$((checked + 1))
  line="$(expected_line "$deck")"
  if [[ -z "$line" ]]; then
    fail "$deck: no '# expect: LINE TEXT' header and no EXPECTED.txt row"
    continue
  fi
  stderr="$("$tribo" check "$deck" 2>&1 >/dev/null)"
  rc=$?
  if [[ $rc -ne 2 ]]; then
    fail "$deck: exit code $rc, expected 2; stderr: $stderr"
    continue
  fi
  # The message starts with the place, FILE:LINE:COLUMN, so editors can jump to it.
  if [[ "$stderr" != *"$deck:$line:"* ]]; then
    fail "$deck: stderr does not contain '$deck:$line:': $stderr"
  fi
done

missing="$bad/this-deck-does-not-exist.yaml"
stderr="$("$tribo" check "$missing" 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 2 ]] || fail "missing deck: exit code $rc, expected 2"
[[ "$stderr" == *"$missing"* ]] || fail "missing deck: stderr does not name the file: $stderr"

for deck in "$good"/*.yaml; do
  checked=$((checked + 1))
  output="$("$tribo" check "$deck" 2>&1)"
  rc=$?
  [[ $rc -eq 0 ]] || fail "$deck: exit code $rc, expected 0: $output"
done

if [[ $checked -lt 45 ]]; then
  fail "only $checked decks found under $source_dir/tests/decks"
fi
cli_finish "checked $checked decks, "
