#!/usr/bin/env bash
# Static checks of the test command: clang-format, qmllint, clang-tidy.
#   bash tests/static/check.sh BUILD_DIR              (a configured build with compile_commands.json)
#   bash tests/static/check.sh --full BUILD_DIR       clang-tidy on every file
#   bash tests/static/check.sh --baseline BUILD_DIR   as without an option; then every file is
#                                                     known to pass (checked now, or unchanged
#                                                     since it passed)
# With --full or --baseline, a pass on a checkout without uncommitted C++ or CMake changes sets
# tests/static/tidy-baseline to this commit (commit that file).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
full=0
record=0
case "${1:-}" in
  --full) full=1 record=1 && shift ;;
  --baseline) record=1 && shift ;;
esac
build="$(realpath "${1:?usage: check.sh [--full|--baseline] BUILD_DIR}")"
cd "$here"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t cxx < <(git ls-files -- '*.cpp' '*.h' | grep -v '^tests/fuzz/corpus/')
else
  mapfile -t cxx < <(find app backend tests -name '*.cpp' -o -name '*.h')
fi

# Every C++ file, not only changed ones: they are all formatted, so this is as cheap and
# cannot miss a file that a partial check would.
echo "==> clang-format (${#cxx[@]} files)"
clang-format-14 --dry-run -Werror "${cxx[@]}"

echo "==> QML labels show plain text (tests/static/qml-plaintext.py)"
python3 tests/static/qml-plaintext.py

echo "==> qmllint (all QML of the console module)"
cmake --build "$build" --target all_qmllint

echo "==> clang-tidy (.clang-tidy: bugprone-*, performance-*, some modernize-*)"
sources=()
for f in "${cxx[@]}"; do
  [[ "$f" == *.cpp ]] && sources+=("$here/$f")
done
# A translation unit is not checked again while nothing it reads has changed since it passed
# (tests/static/tidy_todo.py says how that is decided):
# - here: the key is a hash of the source, every project header it includes (from the build's
#   dependency log, `ninja -t deps`), its compile command, .clang-tidy and the tool and library
#   versions; passed keys are empty files in the cache below;
# - anywhere, a fresh clone too: since tests/static/tidy-baseline, the last commit on which a
#   full run passed (git diff against it).
# --full (or GATEHOUSE_TIDY_CACHE=0) checks every file.
cache="${GATEHOUSE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse}/clang-tidy"
if [ "${GATEHOUSE_TIDY_CACHE:-1}" = 0 ] || [ $full = 1 ]; then
  cache=""
  export TIDY_BASELINE=0
fi
tools_out=$(mktemp)
commands_out=$(mktemp)
export TIDY_TOOLS_OUT="$tools_out" TIDY_COMMANDS_OUT="$commands_out"
[ -z "$cache" ] || { mkdir -p "$cache" && find "$cache" -type f -mtime +30 -delete; }
versions="$(clang-tidy-14 --version; g++ --version | head -1; dpkg-query -W qt6-base-dev 2>/dev/null || true)"
# Only files that are in the compilation database. Prints "KEY FILE" for each file to check and
# writes $build/tidy/compile_commands.json (one entry per source, also in a unity build).
mapfile -t todo < <(ninja -C "$build" -t deps 2>/dev/null | VERSIONS="$versions" python3 \
  "$here/tests/static/tidy_todo.py" "$build/compile_commands.json" "$here" "$build" "${cache:-}" \
  "${sources[@]}")
log=$(mktemp)
tidy_one() { # KEY FILE: check one unit, remember it when it passed
  clang-tidy-14 -p "$build/tidy" --quiet "$2" 2>>"$log.$1" >>"$log.$1" || {
    cat "$log.$1" >>"$log"
    rm -f "$log.$1"
    return 1
  }
  rm -f "$log.$1"
  [ -z "$cache" ] || : >"$cache/$1"
}
export -f tidy_one
export build cache log
if [ ${#todo[@]} -gt 0 ]; then
  printf '%s\n' "${todo[@]}" | xargs -P 2 -L 1 bash -c 'tidy_one "$@"' _ ||
    { grep -E "error:|warning:" -A3 "$log" | head -200; rm -f "$log"; echo "clang-tidy found problems" >&2; exit 1; }
fi
rm -f "$log"
if [ $record = 1 ]; then
  # Only changes that clang-tidy cannot see (docs, scripts, QML) may be uncommitted.
  if ! { git diff HEAD --name-only && git ls-files --others --exclude-standard; } |
    grep -qE '\.(cpp|h|cmake)$|CMakeLists\.txt$|^\.clang-tidy$'; then
    {
      echo "# The last commit on which every file is known to pass clang-tidy (bash"
      echo "# tests/static/check.sh --full|--baseline BUILD_DIR writes this file), the hash of"
      echo "# .clang-tidy and the tools' versions, and of each file's compile command. The test"
      echo "# command checks only what changed since; see tidy_todo.py."
      echo "commit $(git rev-parse HEAD)"
      echo "tools $(cat "$tools_out")"
      cat "$commands_out"
    } >tests/static/tidy-baseline
    echo "==> tests/static/tidy-baseline set to $(git rev-parse --short HEAD): commit it"
  else
    echo "==> clang-tidy passed; C++ or CMake files have uncommitted changes, so the baseline stays"
  fi
fi
rm -f "$tools_out" "$commands_out"
echo "==> static checks passed"
