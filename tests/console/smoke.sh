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

name=console_smoke
# shellcheck source=tests/console/windowed.sh
source "$(dirname "${BASH_SOURCE[0]}")/windowed.sh"
start_console

# Give the dashboard a moment to show live values; the screenshot is for people to look at.
sleep 2
kill -0 "$pid" 2>/dev/null || fail "gatehouse exited right after start"
import -window root "$screenshot" || fail "could not take a screenshot"
assert_not_blank "$screenshot"
stop_console

# The admin token must never appear in the output.
if [ -s "$tmp/data/admin-token" ] && grep -qF -- "$(tr -d '\n' <"$tmp/data/admin-token")" "$log"; then
    fail "the admin token appears in the output"
fi

# The renderer it chose is in the log: without a GPU, Qt Quick's software renderer
# (app/console/scenegraph.h); QSG_RHI_BACKEND=opengl keeps OpenGL (llvmpipe here) and still draws.
grep -q "drawing with Qt Quick's" "$log" || fail "the log does not say which renderer draws"
if [ ! -e /dev/dri ] && [ ! -e /dev/nvidiactl ] && [ -z "${QT_QUICK_BACKEND:-}${QSG_RHI_BACKEND:-}" ]; then
    grep -q "drawing with Qt Quick's software renderer: no GPU device" "$log" ||
        fail "no GPU here, but the software renderer was not chosen: $(grep 'drawing with' "$log")"
fi
QSG_RHI_BACKEND=opengl start_console
grep -q "drawing with Qt Quick's default renderer: QSG_RHI_BACKEND is set" "$log" ||
    fail "QSG_RHI_BACKEND=opengl was not left to Qt: $(grep 'drawing with' "$log" || true)"
sleep 1
import -window root "$tmp/opengl.png" || fail "could not take a screenshot"
assert_not_blank "$tmp/opengl.png"
stop_console

echo "console_smoke: ok (screenshot: $screenshot)"
