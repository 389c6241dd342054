#!/usr/bin/env bash
# End-to-end smoke test of the console: runs the real gatehouse binary (embedded backend and
# QML console) under Xvfb, waits until the console has drawn its first frame, takes a
# screenshot, stops gatehouse with SIGTERM and expects exit code 0.
#
# usage: smoke.sh <path to gatehouse> [screenshot.png]   (default: ./console-smoke.png)
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 <gatehouse binary> [screenshot.png]" >&2
    exit 2
fi
gatehouse=$(realpath "$1")
screenshot=$(realpath -m "${2:-console-smoke.png}")

# Re-run inside a private X server; xvfb-run gives the display only to its child.
if [ -z "${GATEHOUSE_SMOKE_IN_XVFB:-}" ]; then
    for tool in xvfb-run import; do
        command -v "$tool" >/dev/null || { echo "console_smoke: $tool not found" >&2; exit 1; }
    done
    export GATEHOUSE_SMOKE_IN_XVFB=1
    exec xvfb-run -a -s "-screen 0 1280x800x24" bash "$0" "$gatehouse" "$screenshot"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-smoke.XXXXXX")
log="$tmp/gatehouse.log"
pid=""
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "console_smoke: $*" >&2
    echo "---- gatehouse output ----" >&2
    cat "$log" >&2 || true
    exit 1
}

# The real window system, not the offscreen platform CTest may have set for other tests.
unset QT_QPA_PLATFORM
# Under AddressSanitizer: the test command asks for the slow (full-stack) unwinder so that
# leak suppressions can see Qt frames, but Mesa's llvmpipe allocates so much while compiling
# shaders that the window would take many minutes to appear, so the windowed console gets
# the fast unwinder. Leak detection is off for this one process: Mesa's GL driver is
# dlclose'd before LeakSanitizer runs, so its allocations cannot be attributed or
# suppressed. Use-after-free, overflow and UBSan checks stay on here, and the same binary's
# backend is leak-checked in tst_integration (headless runs exit through the same shutdown).
if [ -n "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=1:detect_leaks=0"
fi
# The console's settings (language, theme, window geometry) neither read from nor written to
# the user's ~/.config/gatehouse/console.conf.
export XDG_CONFIG_HOME="$tmp/config"
"$gatehouse" --data-dir "$tmp/data" --service-port 0 --cluster-port 0 --admin-port 0 \
    >"$log" 2>&1 &
pid=$!

ready=""
for _ in $(seq 1 300); do # 30 s
    if grep -q "gatehouse: console ready" "$log"; then
        ready=1
        break
    fi
    kill -0 "$pid" 2>/dev/null || fail "gatehouse exited before the console was ready"
    sleep 0.1
done
[ -n "$ready" ] || fail "no 'gatehouse: console ready' within 30 s"

# Give the dashboard a moment to show live values; the screenshot is for people to look at.
sleep 2
kill -0 "$pid" 2>/dev/null || fail "gatehouse exited right after start"
import -window root "$screenshot" || fail "could not take a screenshot"
# A blank screen has no variance: the window must really be there.
deviation=$(convert "$screenshot" -format "%[fx:standard_deviation]" info:)
awk -v d="$deviation" 'BEGIN { exit !(d > 0.01) }' || fail "the screenshot is blank"

kill -TERM "$pid"
code=""
for _ in $(seq 1 150); do # 15 s
    if ! kill -0 "$pid" 2>/dev/null; then
        set +e
        wait "$pid"
        code=$?
        set -e
        break
    fi
    sleep 0.1
done
[ -n "$code" ] || fail "gatehouse did not stop within 15 s of SIGTERM"
pid=""
[ "$code" -eq 0 ] || fail "gatehouse exited with $code after SIGTERM"

# The admin token must never appear in the output.
if [ -s "$tmp/data/admin-token" ] && grep -qF -- "$(tr -d '\n' <"$tmp/data/admin-token")" "$log"; then
    fail "the admin token appears in the output"
fi

echo "console_smoke: ok (screenshot: $screenshot)"
