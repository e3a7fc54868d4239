# Shared by the command-line tests of tests/cli (sourced, not run: tests/CMakeLists.txt skips it).
# Each test starts with
#   set -u
#   source "$(dirname "$0")/lib.sh"
#   cli_setup NAME "$@"
# and ends with `cli_finish "what was checked, "`, which prints "... N failure(s)" and sets the
# exit status (0 when none).

# cli_setup NAME TRIBO [SOURCE_DIR]: $tribo, $source_dir (when given), an empty folder $work
# removed at exit (after the function cli_before_cleanup, when the test defines one), the
# failure count $failures and fail().
cli_setup() {
  local name="$1"
  tribo="${2:?usage: $name.sh TRIBO SOURCE_DIR}"
  source_dir="${3:-}"
  if [[ ! -x "$tribo" ]]; then
    echo "FAIL: $tribo is not an executable" >&2
    exit 1
  fi
  work="$(mktemp -d "${TMPDIR:-/tmp}/tribo-$name.XXXXXX")"
  trap cli_cleanup EXIT
  failures=0
}

cli_cleanup() {
  if declare -F cli_before_cleanup >/dev/null; then cli_before_cleanup; fi
  rm -rf "$work"
}

# fail MESSAGE: reports one failure on stderr and counts it.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

cli_finish() {
  echo "${1:-}$failures failure(s)"
  [[ $failures -eq 0 ]]
}

# expect_exit NAME EXPECTED_EXIT TEXT COMMAND...: runs COMMAND under a 30 s timeout (KILL: exit 137
# is a hang) and checks its exit code and that TEXT is in its stderr; a mismatch is a failure.
# Leaves stderr in $stderr, stdout in $work/stdout, the exit code in $rc and the wall time in
# $millis; returns 1 on a failure.
expect_exit() {
  local name="$1" expected="$2" text="$3"
  shift 3
  local start end
  start=$(date +%s%N)
  stderr="$(timeout -s KILL 30 "$@" 2>&1 >"$work/stdout")"
  rc=$?
  end=$(date +%s%N)
  millis=$(((end - start) / 1000000))
  if [[ $rc -eq 137 ]]; then
    fail "$name: did not end within 30 s"
    return 1
  fi
  if [[ $rc -ne $expected ]]; then
    fail "$name: exit code $rc, expected $expected; stderr: $stderr"
    return 1
  fi
  if [[ "$stderr" != *"$text"* ]]; then
    fail "$name: stderr does not contain '$text': $stderr"
    return 1
  fi
  return 0
}

# expect_header DECK: reads the deck's first line `# expect: LINE TEXT` into $expect_line and
# $expect_text; returns 1 (both empty) when the deck has none.
expect_header() {
  expect_line="" expect_text=""
  local header
  header="$(head -n 1 "$1" | tr -d '\0')"
  [[ "$header" =~ ^#\ expect:\ ([0-9]+)\ (.*)$ ]] || return 1
  expect_line="${BASH_REMATCH[1]}" expect_text="${BASH_REMATCH[2]}"
}

# shortened SOURCE DEST OLD NEW [OLD NEW ...]: DEST is the deck SOURCE with each text OLD replaced
# by NEW (fixed strings); a text that is not in the deck is a failure, so a deck edited elsewhere
# cannot silently stop shortening.
shortened() {
  local source="$1" dest="$2" text
  shift 2
  text="$(cat "$source")"
  while (($# >= 2)); do
    [[ "$text" == *"$1"* ]] || fail "shortened: '$1' is not in $source"
    text="${text//"$1"/"$2"}"
    shift 2
  done
  printf '%s\n' "$text" >"$dest"
}
