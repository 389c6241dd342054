# shellcheck shell=bash
# Sourced, not run: the Debian packages Gatehouse needs and the function that installs the
# missing ones. Shared by scripts/dev.sh (the README's two commands) and the benchmarks
# (tests/bench/run.sh, tests/bench/soak.sh), so that each of them works on a fresh Debian 12
# machine on its own. Messages go to stderr (the benchmarks print their table on stdout).

# What building and running needs. (The arrays are read by the scripts that source this file.)
# shellcheck disable=SC2034
BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-declarative-dev qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite libqt6opengl6-dev
  qt6-qpa-plugins qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts
  qml6-module-qtquick-window qml6-module-qtquick-templates qml6-module-qtqml-workerscript
  qml6-module-qtquick-dialogs qml6-module-qt-labs-folderlistmodel qml6-module-qtqml qml6-module-qtqml-models
  libsqlite3-dev libssl-dev libcjose-dev libjansson-dev libargon2-dev libyaml-cpp-dev libmimalloc-dev openssl fonts-dejavu-core
)
# What the test suite additionally needs (real counterparts: openssl, curl, a display; and
# for the package test dpkg-shlibdeps, desktop-file-validate, file).
# shellcheck disable=SC2034
TEST_PACKAGES=(
  qml6-module-qttest xvfb xauth xdotool imagemagick curl chromium python3-jwcrypto python3-kubernetes
  clang-14 libclang-rt-14-dev libfuzzer-14-dev clang-tidy-14 clang-format-14 ccache
  dpkg-dev desktop-file-utils file adduser
)

# The end-to-end tests run in Node (>= 20; Debian 12's own nodejs is 18, so only when no
# node is on PATH at all is Debian's installed) with packages from the npm registry.
ensure_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    install_missing nodejs npm
  fi
}

need_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
  local p missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing missing Debian packages: ${missing[*]}" >&2
    need_root apt-get update -qq
    need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "==> all required Debian packages are present" >&2
  fi
}
