#!/usr/bin/env bash
# The README's two commands in a genuinely fresh Debian 12 (bookworm) root made with
# debootstrap --variant=minbase: nothing installed by hand, no Node, no kubectl, no compiler.
#
#   sudo bash scripts/fresh-debian.sh [ROOT]      (ROOT defaults to /var/tmp/gatehouse-deb12)
#
# It makes the root (about a minute), clones the current commit of this checkout into
# ROOT/root/gatehouse, runs `bash scripts/dev.sh run` until the server says it is ready
# (then stops it with SIGTERM) and `bash scripts/dev.sh test`, and prints how long each took.
# Logs: ROOT/root/run.log and ROOT/root/test.log. An existing ROOT is reused as it is (delete
# it for a cold run). Needs root (debootstrap, chroot, mounts) and Debian's `debootstrap`.
#
# Networks that intercept TLS with their own CA: the CA certificates found in
# /usr/local/share/ca-certificates are copied into the root, as a machine on that network
# would have them; that is the only file taken from the host besides resolv.conf.
set -euo pipefail

root=${1:-/var/tmp/gatehouse-deb12}
here=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-debian.sh: run as root (debootstrap and chroot need it)" >&2
  exit 2
fi
command -v debootstrap > /dev/null || apt-get install -y debootstrap

stamp() { date +%s; }

if [ ! -x "$root/bin/bash" ]; then
  t=$(stamp)
  debootstrap --variant=minbase bookworm "$root" "$mirror"
  echo "==> debootstrap: $(($(stamp) - t)) s"
fi
cat > "$root/etc/apt/sources.list" << EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

mounted=()
mount_once() { # type-or-bind source target
  if ! mountpoint -q "$3"; then
    if [ "$1" = bind ]; then mount --rbind "$2" "$3"; else mount -t "$1" "$2" "$3"; fi
    mounted+=("$3")
  fi
}
cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[i]}
    umount -R -l "$m" 2> /dev/null || true
  done
}
trap cleanup EXIT
mount_once proc proc "$root/proc"
mount_once bind /sys "$root/sys"
mount_once bind /dev "$root/dev"

rm -rf "$root/root/gatehouse"
git clone -q "$here" "$root/root/gatehouse"
git -C "$root/root/gatehouse" checkout -q "$(git -C "$here" rev-parse HEAD)"

cat > "$root/root/fresh-check.sh" << 'EOF'
#!/bin/bash
# Inside the root: the README's two commands, timed.
set -u
cd /root/gatehouse
export HOME=/root LANG=C.UTF-8
start=$(date +%s)
bash scripts/dev.sh run > /root/run.log 2>&1 &
runpid=$!
ready=no
while kill -0 $runpid 2> /dev/null; do
  if grep -q "ready; data dir" /root/run.log; then ready=yes; break; fi
  sleep 1
done
echo "==> run: ready=$ready after $(($(date +%s) - start)) s"
kill -TERM $runpid 2> /dev/null
wait $runpid
echo "==> run: exit $? after SIGTERM"
[ "$ready" = yes ] || exit 1
start=$(date +%s)
bash scripts/dev.sh test > /root/test.log 2>&1
rc=$?
echo "==> test: exit $rc after $(($(date +%s) - start)) s"
exit $rc
EOF
chroot "$root" /bin/bash /root/fresh-check.sh
