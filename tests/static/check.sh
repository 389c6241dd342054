#!/usr/bin/env bash
# Static checks of the test command: clang-format, qmllint, clang-tidy.
#   bash tests/static/check.sh BUILD_DIR     (a configured build with compile_commands.json)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(realpath "${1:?usage: check.sh BUILD_DIR}")"
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

echo "==> qmllint (all QML of the console module)"
cmake --build "$build" --target all_qmllint

echo "==> clang-tidy (.clang-tidy: bugprone-*, performance-*, some modernize-*)"
sources=()
for f in "${cxx[@]}"; do
  [[ "$f" == *.cpp ]] && sources+=("$here/$f")
done
# Only files that are in the compilation database (fuzz targets live in another build).
mapfile -t known < <(python3 - "$build/compile_commands.json" "${sources[@]}" <<'PY'
import json, sys
db = {e["file"] for e in json.load(open(sys.argv[1]))}
for f in sys.argv[2:]:
    if f in db:
        print(f)
PY
)
echo "    ${#known[@]} translation units"
printf '%s\n' "${known[@]}" | xargs -P 2 -n 4 clang-tidy-14 -p "$build" --quiet 2>/tmp/clang-tidy.$$.log \
  || { grep -E "error:|warning:" -A3 /tmp/clang-tidy.$$.log | head -200; rm -f /tmp/clang-tidy.$$.log; echo "clang-tidy found problems" >&2; exit 1; }
rm -f /tmp/clang-tidy.$$.log
echo "==> static checks passed"
