#!/usr/bin/env bash
# Runs a command in a network and mount namespace of its own (unshare -rmn: no root needed, the
# host's network and files untouched): only a loopback interface, /etc/resolv.conf naming a DNS
# server on 127.0.0.1:53 (which the test runs, and which may never answer) with a 10 s timeout,
# /etc/hosts naming hook.gatehouse.test, and 10.9.9.9 on the loopback interface (an address Qt
# would send through a proxy). For the tests that need name lookups to be slow or a proxy in
# the environment (lookups.test.mjs). Exits 77 (CTest: skipped, with the reason) where user namespaces are off.
#
#   bash tests/e2e/netns/run.sh node --test lookups.test.mjs
set -euo pipefail
if [ "${GATEHOUSE_IN_NETNS:-}" != 1 ]; then
    if ! unshare -rmn true 2>/dev/null; then
        echo "SKIPPED: unshare -rmn is not permitted here (unprivileged user namespaces are off)" >&2
        exit 77
    fi
    GATEHOUSE_IN_NETNS=1 exec unshare -rmn bash "${BASH_SOURCE[0]}" "$@"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'nameserver 127.0.0.1\noptions timeout:10 attempts:1\n' >"$dir/resolv.conf"
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n127.0.0.1 hook.gatehouse.test\n' >"$dir/hosts"
mount --bind "$dir/resolv.conf" /etc/resolv.conf
mount --bind "$dir/hosts" /etc/hosts
ip link set lo up
# An address that is not loopback (Qt never proxies loopback), for receivers to listen on.
ip addr add 10.9.9.9/32 dev lo
"$@"
