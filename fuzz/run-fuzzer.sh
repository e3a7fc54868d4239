#!/usr/bin/env bash
# Runs the deck-reader fuzzer for SECONDS on the deck corpus (tests/decks/good and bad, never
# written to: new inputs go to BUILD/fuzz-corpus) and prints one summary line with the number of
# executions. Any crash, leak, sanitizer report or timeout fails with the log's tail and the saved
# input (BUILD/crash-*, timeout-*, leak-*): reproduce with `BUILD/fuzz/tribo_deck_fuzzer FILE`.
# Usage: fuzz/run-fuzzer.sh BUILD [SECONDS]
set -uo pipefail
build="${1:?usage: run-fuzzer.sh BUILD [SECONDS]}"
seconds="${2:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzzer="$build/fuzz/tribo_deck_fuzzer"
log="$build/fuzz.log"
[[ -x "$fuzzer" ]] || { echo "run-fuzzer: $fuzzer is not built" >&2; exit 1; }
mkdir -p "$build/fuzz-corpus"
# -timeout: a deck that takes 10 s to read is a hang; -rss_limit_mb: one that needs 2 GB is a fault.
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -dict="$root/fuzz/deck.dict" -artifact_prefix="$build/" \
  "$build/fuzz-corpus" "$root/tests/decks/good" "$root/tests/decks/bad" >"$log" 2>&1
rc=$?
runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
seeds="$(sed -n 's/^#[0-9]*[[:space:]]*INITED .*corp: \([0-9]*\).*/\1/p' "$log")"
grep '^deck fuzzer:' "$log" | sort -u
if [[ $rc -ne 0 ]]; then
  tail -n 60 "$log"
  echo "fuzz: FAILED (exit $rc) after ${runs:-?} executions; inputs saved: $(ls "$build" | grep -E '^(crash|timeout|leak|oom|slow-unit)-' | tr '\n' ' ')"
  exit 1
fi
echo "fuzz: ${runs} executions in ${seconds} s (${rate}/s) from ${seeds:-?} corpus decks, no crash, leak, sanitizer report or timeout"
