# shellcheck shell=bash
# Shared by smoke.sh and pages.sh (sourced, inside their Xvfb): a private temporary directory,
# the real gatehouse console started in it, waited for, and stopped with SIGTERM (exit code 0
# expected). The sourcing script sets $name (for messages) and $gatehouse first.

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-$name.XXXXXX")
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
    echo "$name: $*" >&2
    echo "---- gatehouse output ----" >&2
    cat "$log" >&2 || true
    exit 1
}

# The real window system, not the offscreen platform CTest may have set for other tests.
unset QT_QPA_PLATFORM
# Under AddressSanitizer: the fast unwinder, whatever the caller asked for (Mesa's llvmpipe
# allocates so much while compiling shaders that with the slow one the window would take
# many minutes to appear). Leak detection is off for this one process: Mesa's GL driver is
# dlclose'd before LeakSanitizer runs, so its allocations cannot be attributed or
# suppressed. Use-after-free, overflow and UBSan checks stay on here, and the same binary's
# backend is leak-checked in tst_integration (headless runs exit through the same shutdown).
if [ -n "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=1:detect_leaks=0"
fi
# The console's settings (language, theme, window geometry) neither read from nor written to
# the user's ~/.config/gatehouse/console.conf.
export XDG_CONFIG_HOME="$tmp/config"

# start_console [gatehouse arguments]: a fresh data dir, ephemeral ports; waits (up to 60 s)
# for "gatehouse: console ready" (the window's first frame).
start_console() {
    rm -rf "$tmp/data"
    # Emptied here, not only by the background job's redirection: that runs in the forked
    # child, and until it does, the wait below would find the previous run's "console ready"
    # (a second start then "passed" at once, and its checks read the first run's log).
    : >"$log"
    "$gatehouse" --data-dir "$tmp/data" --service-port 0 --cluster-port 0 --admin-port 0 "$@" \
        >"$log" 2>&1 &
    pid=$!
    local ready=""
    for _ in $(seq 1 600); do
        if grep -q "gatehouse: console ready" "$log"; then
            ready=1
            break
        fi
        kill -0 "$pid" 2>/dev/null || fail "gatehouse exited before the console was ready"
        sleep 0.1
    done
    [ -n "$ready" ] || fail "no 'gatehouse: console ready' within 60 s"
}

# stop_console: SIGTERM; gatehouse must stop within 15 s with exit code 0.
stop_console() {
    kill -TERM "$pid"
    local code=""
    for _ in $(seq 1 150); do
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
}

# assert_not_blank FILE: a blank screen has no variance; the window must really be there.
assert_not_blank() {
    local deviation
    deviation=$(convert "$1" -format "%[fx:standard_deviation]" info:)
    awk -v d="$deviation" 'BEGIN { exit !(d > 0.01) }' || fail "the screenshot $1 is blank"
}
