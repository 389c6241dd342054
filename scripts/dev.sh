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

# What building and running needs.
BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-declarative-dev qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite libqt6opengl6-dev
  qt6-qpa-plugins qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts
  qml6-module-qtquick-window qml6-module-qtquick-templates qml6-module-qtqml-workerscript
  qml6-module-qtquick-dialogs qml6-module-qtqml qml6-module-qtqml-models
  libssl-dev libcjose-dev libjansson-dev libargon2-dev libyaml-cpp-dev openssl fonts-dejavu-core
)
# What the test suite additionally needs (real counterparts: openssl, curl, a display).
TEST_PACKAGES=(
  qml6-module-qttest xvfb xauth imagemagick curl
)

need_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
  local missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing missing Debian packages: ${missing[*]}"
    need_root apt-get update -qq
    need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "==> all required Debian packages are present"
  fi
}

configure_and_build() {
  echo "==> configuring ($BUILD_DIR)"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  echo "==> building with $JOBS jobs"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

cmd="${1:-}"
shift || true
case "$cmd" in
  run)
    install_missing "${BUILD_PACKAGES[@]}"
    configure_and_build
    echo "==> starting Gatehouse (console if a display exists, else headless)"
    exec "$BUILD_DIR/app/gatehouse" "$@"
    ;;
  test)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    configure_and_build -DGATEHOUSE_BUILD_TESTS=ON
    echo "==> running the test suite"
    ctest --test-dir "$BUILD_DIR" -j 2 --output-on-failure --timeout 900 "$@"
    ;;
  *)
    echo "usage: bash scripts/dev.sh run [gatehouse arguments] | test [ctest arguments]" >&2
    exit 2
    ;;
esac
