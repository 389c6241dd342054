#!/usr/bin/env bash
# Runs the libFuzzer targets for as long as asked, two at a time (2 cores), and prints how
# many executions each reached. New interesting inputs go to build-fuzz/tests/fuzz/corpus/.
#   bash tests/fuzz/run.sh 600                  every target for 10 minutes
#   bash tests/fuzz/run.sh 60 fuzz_jws fuzz_pem
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
seconds="${1:-60}"; shift || true
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGATEHOUSE_FUZZ=ON -DGATEHOUSE_BUILD_CONSOLE=OFF -DGATEHOUSE_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" >/dev/null
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd build-fuzz/tests/fuzz && ls fuzz_* | grep -v "\." )
logs="$(mktemp -d)"
run_one() {
  local t="$1"
  mkdir -p "build-fuzz/tests/fuzz/corpus/$t"
  (cd "$logs" && QT_LOGGING_RULES='*=false' "$here/build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     "$here/build-fuzz/tests/fuzz/corpus/$t" "$here/tests/fuzz/corpus/$t" >"$logs/$t.log" 2>&1) \
    && echo "$t ok" || { echo "$t FAILED (see $logs/$t.log)"; touch "$logs/$t.failed"; }
}
export -f run_one; export here seconds logs
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c 'run_one {}'
printf "| target | seconds | executions | exec/s | corpus | crashes |\n|---|---|---|---|---|---|\n"
for t in "${targets[@]}"; do
  # (no pipelines that may fail here: the script runs with pipefail)
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$logs/$t.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\).*/\1/p' "$logs/$t.log")
  corpus=$(find "build-fuzz/tests/fuzz/corpus/$t" -type f | wc -l)
  crashes=$(find "$logs" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \) | wc -l)
  printf "| %s | %s | %s | %s | %s | %s |\n" "$t" "$seconds" "$execs" "$rate" "$corpus" "$crashes"
done
echo "(logs in $logs)"
# A crash, leak, timeout or failed FUZZ_ASSERT in any target fails the run.
failed=$(find "$logs" -maxdepth 1 -name '*.failed' | wc -l)
if [ "$failed" -gt 0 ]; then
  echo "fuzzing FAILED: $failed target(s) found a problem" >&2
  exit 1
fi
