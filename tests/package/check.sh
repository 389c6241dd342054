#!/usr/bin/env bash
# The Debian package end to end (docs/packaging.md):
#   bash tests/package/check.sh [BUILD_DIR]      default build-package-check; needs root or sudo -n
#   bash tests/package/check.sh --build-only [BUILD_DIR]   step 1's build alone
#
# Builds only the gatehouse target (Release at -O0, no sanitizers, ccache when present), runs
# `cpack -G DEB`, inspects the .deb, installs it with dpkg, starts the service — with
# systemctl where systemd runs, else exactly what the installed unit says (ExecStart, User,
# Group, environment, working directory, umask) — checks /healthz on every listener and the
# data directory, stops it with SIGTERM (exit 0) and purges the package. Whatever happens,
# the package, the test's drop-in and a service user this run created are removed on exit.
#
# Listeners: a drop-in next to the unit sets every port to 0 on 127.0.0.1, so the test never
# collides with another Gatehouse or a test running in parallel; the ports come from
# <data-dir>/ports.json.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"

build_only=0
if [ "${1:-}" = --build-only ]; then
    build_only=1
    shift
fi
BUILD_DIR="${1:-build-package-check}"
JOBS="${GATEHOUSE_JOBS:-$(nproc)}"
PKG=gatehouse
SERVICE=gatehouse.service
DATA_DIR=/var/lib/gatehouse
DROPIN_DIR=/etc/systemd/system/$SERVICE.d
DROPIN=$DROPIN_DIR/zz-package-test.conf
START_TIMEOUT=60

started=$SECONDS
step() { echo "==> package: $*"; }
fail() {
    echo "package test: FAIL: $*" >&2
    exit 1
}
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}
pkg_status() { dpkg-query -W -f='${db:Status-Abbrev}' "$PKG" 2>/dev/null || true; }
systemd_running() { [ -d /run/systemd/system ]; }

# The gatehouse target in $BUILD_DIR (also alone: --build-only).
build_gatehouse() {
    if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
        export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
        export CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1
    fi
    if [ -f "$BUILD_DIR/CMakeCache.txt" ] &&
        grep -Eq '^GATEHOUSE_(SANITIZE|FUZZ):BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; then
        fail "$BUILD_DIR is a sanitizer or fuzz build; give the package build its own directory"
    fi
    # -O0, not CMake's Release -O3: what this test checks is g++'s build (the compiler of `dev.sh
    # run`) and the package, not the optimiser (the service it starts answers /healthz).
    # Measured cold, the compiler cache off: 364 CPU-s at -O0 against 480 at -O1 (2026-11-30)
    # and 609 at -O3. Its own directory, so that the release recipe in docs/packaging.md
    # (build-package, -O3) never inherits these flags from the cache.
    # One unity batch per target: a one-shot build parses each header once per target, not once
    # per 8 sources (cold, g++ -O0: 227 CPU-s against 367 with batches of 8).
    step "configuring $BUILD_DIR (Release at -O0, one unity batch a target, console, no tests, no sanitizers, prefix /usr)"
    local log
    log="$(mktemp)"
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
        "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O0 -DNDEBUG" \
        -DGATEHOUSE_UNITY_BATCH_SIZE=1000 \
        -DGATEHOUSE_BUILD_TESTS=OFF -DGATEHOUSE_BUILD_CONSOLE=ON -DGATEHOUSE_SANITIZE=OFF \
        -DGATEHOUSE_FUZZ=OFF >"$log" 2>&1 || {
        cat "$log" >&2
        rm -f "$log"
        fail "cmake configure failed"
    }
    rm -f "$log"
    step "building the gatehouse target with $JOBS jobs"
    cmake --build "$BUILD_DIR" -j "$JOBS" --target gatehouse
}

# --build-only: the build alone (no root needed, nothing installed), e.g. ahead of the test at
# a low priority while the cores have time to spare (scripts/dev.sh test); the test itself then
# finds it built.
if [ "$build_only" = 1 ]; then
    build_gatehouse
    exit 0
fi

# ---- preconditions: never touch a real installation ----------------------------------------
for tool in cmake cpack ninja dpkg dpkg-deb dpkg-shlibdeps desktop-file-validate curl python3 file flock; do
    command -v "$tool" >/dev/null 2>&1 ||
        fail "$tool is missing (bash scripts/dev.sh test installs what the package test needs)"
done
as_root true 2>/dev/null || fail "needs root or password-less sudo (dpkg -i, the service user)"
# One package test per machine at a time (other checkouts run it too): it installs the one
# system-wide package. flock works on a read-only descriptor, which any user may open.
LOCK=/run/lock/gatehouse-package-test.lock
as_root sh -c "[ -e $LOCK ] || : >$LOCK"
exec 9<"$LOCK"
if ! flock -n 9; then
    echo "==> package: waiting for the package test of another checkout ($LOCK)"
    flock -w 1800 9 || fail "another package test held $LOCK for 30 minutes"
fi
started=$SECONDS
case "$(pkg_status)" in
"" | "un "*) ;;
*) fail "the $PKG package is already on this machine ($(pkg_status)); this test installs and purges it — remove it first (dpkg --purge $PKG)" ;;
esac
as_root test ! -e "$DATA_DIR" ||
    fail "$DATA_DIR exists; purging the test's package would delete it — move it away first"
as_root test ! -e "/etc/systemd/system/$SERVICE" ||
    fail "/etc/systemd/system/$SERVICE overrides the packaged unit; remove it first"

tmp="$(mktemp -d)"
service_pid="" # what this script started and waits for (the server, or sudo running it)
main_pid=""    # the server itself
installed_by_us=0
user_created_by_us=0
getent passwd gatehouse >/dev/null || user_created_by_us=1

cleanup() {
    local rc=$?
    set +e
    if [ -n "$service_pid" ] && kill -0 "$service_pid" 2>/dev/null; then
        as_root kill -TERM "${main_pid:-$service_pid}" 2>/dev/null
        for _ in $(seq 1 150); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
        as_root kill -KILL "${main_pid:-$service_pid}" "$service_pid" 2>/dev/null
        wait "$service_pid" 2>/dev/null
    fi
    if [ "$rc" -ne 0 ] && [ -s "$tmp/service.log" ]; then
        echo "---- service log (last 40 lines) ----" >&2
        tail -n 40 "$tmp/service.log" >&2
        echo "-------------------------------------" >&2
    fi
    if [ "$installed_by_us" = 1 ] && [ -n "$(pkg_status)" ] && [ "$(pkg_status)" != "un " ]; then
        systemd_running && as_root systemctl stop "$SERVICE" >/dev/null 2>&1
        as_root dpkg --purge "$PKG" >/dev/null 2>&1 || echo "package test: could not purge $PKG" >&2
    fi
    as_root rm -f "$DROPIN"
    as_root rmdir "$DROPIN_DIR" 2>/dev/null
    systemd_running && as_root systemctl daemon-reload >/dev/null 2>&1
    if [ "$user_created_by_us" = 1 ] && getent passwd gatehouse >/dev/null; then
        as_root userdel gatehouse >/dev/null 2>&1
        getent group gatehouse >/dev/null && as_root groupdel gatehouse >/dev/null 2>&1
    fi
    rm -rf "$tmp"
    [ "$rc" -eq 0 ] || echo "package test: cleaned up after the failure (exit $rc)" >&2
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- 1. build and package ------------------------------------------------------------------
build_gatehouse
built=$SECONDS

step "cpack -G DEB"
rm -rf "$BUILD_DIR/packages"
cpack --config "$BUILD_DIR/CPackConfig.cmake" -G DEB -B "$BUILD_DIR/packages" >"$tmp/cpack.log" 2>&1 || {
    cat "$tmp/cpack.log" >&2
    fail "cpack -G DEB failed"
}
shopt -s nullglob
debs=("$BUILD_DIR"/packages/"$PKG"_*.deb)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || fail "expected one ${PKG}_*.deb in $BUILD_DIR/packages, found ${#debs[@]}"
deb="$(cd "$(dirname "${debs[0]}")" && pwd)/$(basename "${debs[0]}")"
packaged=$SECONDS
echo "    $(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"

# ---- 2. inspect the .deb -------------------------------------------------------------------
step "inspecting the package"
version="$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$BUILD_DIR/CPackConfig.cmake")"
[ -n "$version" ] || fail "no CPACK_PACKAGE_VERSION in $BUILD_DIR/CPackConfig.cmake"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = "$PKG" ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version-1" ] || fail "Version is '$(field Version)', expected $version-1"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is '$(field Architecture)'"
for f in Maintainer Section Homepage Description; do
    [ -n "$(field "$f")" ] || fail "the control file has no $f"
done
depends="$(field Depends)"
echo "    Depends: $depends"
# The package names in Depends, one a line (alternatives split, versions dropped).
dep_names="$(tr ',|' '\n' <<<"$depends" | awk '{print $1}')"
need_dep() { # name [prefix]
    if [ "${2:-}" = prefix ]; then
        awk -v p="$1" 'index($0, p) == 1 {found=1} END {exit !found}' <<<"$dep_names"
    else
        grep -qxF "$1" <<<"$dep_names"
    fi || fail "Depends lacks $1${2:+ (dpkg-shlibdeps)}"
}
# dpkg-shlibdeps' libraries (by name prefix: sonames differ between releases); then what Qt
# loads at run time (the SQLite driver, the QML modules) and what postinst uses.
for dep in libc6 libstdc++6 libqt6core6 libqt6network6 libqt6sql6 libqt6gui6 libqt6quick6 \
    libssl3 libcjose libargon2 libc-ares libyaml-cpp libprotobuf libsqlite3 libmimalloc; do
    need_dep "$dep" prefix
done
for dep in adduser libqt6sql6-sqlite qml6-module-qtqml qml6-module-qtqml-models \
    qml6-module-qtqml-workerscript qml6-module-qtquick qml6-module-qtquick-controls \
    qml6-module-qtquick-dialogs qml6-module-qtquick-layouts qml6-module-qtquick-templates \
    qml6-module-qtquick-window qml6-module-qt-labs-folderlistmodel; do
    need_dep "$dep"
done
duplicates="$(sort <<<"$dep_names" | uniq -d)"
[ -z "$duplicates" ] || fail "Depends names twice: $duplicates"

dpkg-deb -c "$deb" | awk '{print $2, $6}' >"$tmp/contents"
unit_path=""
for path in ./usr/bin/gatehouse ./usr/share/applications/gatehouse.desktop \
    ./usr/share/icons/hicolor/scalable/apps/gatehouse.svg \
    ./usr/share/icons/hicolor/256x256/apps/gatehouse.png \
    ./usr/share/icons/hicolor/128x128/apps/gatehouse.png \
    ./etc/default/gatehouse ./usr/share/doc/gatehouse/README.md; do
    grep -q " $path\$" "$tmp/contents" || fail "the package lacks $path"
done
unit_path="$(awk '$2 ~ /\/systemd\/system\/gatehouse\.service$/ {print substr($2, 2)}' "$tmp/contents")"
[ -n "$unit_path" ] || fail "the package has no systemd/system/gatehouse.service"
# The service's settings may hold the database password: root's only.
dpkg-deb -c "$deb" | awk '$6 == "./etc/default/gatehouse" {print $1}' | grep -qx -- '-rw-------' ||
    fail "/etc/default/gatehouse is not 0600: $(dpkg-deb -c "$deb" | grep etc/default/gatehouse)"
if awk '$1 != "root/root" {bad=1} END {exit !bad}' "$tmp/contents"; then
    fail "files not owned by root/root: $(awk '$1 != "root/root"' "$tmp/contents" | head -3)"
fi

mkdir -p "$tmp/deb" "$tmp/control"
dpkg-deb -x "$deb" "$tmp/deb"
dpkg-deb -e "$deb" "$tmp/control"
for script in postinst prerm postrm; do
    [ -x "$tmp/control/$script" ] || fail "the package has no executable $script"
    sh -n "$tmp/control/$script" || fail "$script is not valid sh"
done
grep -qx /etc/default/gatehouse "$tmp/control/conffiles" || fail "/etc/default/gatehouse is not a conffile"
desktop-file-validate "$tmp/deb/usr/share/applications/gatehouse.desktop" ||
    fail "gatehouse.desktop does not pass desktop-file-validate"
file "$tmp/deb/usr/share/icons/hicolor/256x256/apps/gatehouse.png" | grep -q 'PNG image data, 256 x 256' ||
    fail "the 256x256 icon is not a 256x256 PNG"
file "$tmp/deb/usr/bin/gatehouse" | grep -q ', stripped' || fail "/usr/bin/gatehouse is not stripped"
"$tmp/deb/usr/bin/gatehouse" --version | grep -qx "gatehouse $version" ||
    fail "the packaged binary does not report version $version"
help="$("$tmp/deb/usr/bin/gatehouse" --help)"
for flag in --headless --data-dir; do
    grep -q -- "$flag" <<<"$help" || fail "gatehouse --help has no $flag (the unit uses it)"
done

# ---- 3. install ----------------------------------------------------------------------------
# The drop-in exists before dpkg -i, so that a postinst that starts the service (systemd
# running) already uses the test's ports.
step "drop-in $DROPIN: every listener on 127.0.0.1, port 0"
as_root mkdir -p "$DROPIN_DIR"
as_root tee "$DROPIN" >/dev/null <<'EOF'
# Written by tests/package/check.sh and removed when it ends: ephemeral loopback ports.
[Service]
Environment=GATEHOUSE_SERVICE_ADDRESS=127.0.0.1
Environment=GATEHOUSE_SERVICE_PORT=0
Environment=GATEHOUSE_CLUSTER_ADDRESS=127.0.0.1
Environment=GATEHOUSE_CLUSTER_PORT=0
Environment=GATEHOUSE_ADMIN_ADDRESS=127.0.0.1
Environment=GATEHOUSE_ADMIN_PORT=0
EOF

step "dpkg -i $(basename "$deb")"
installed_by_us=1
as_root dpkg -i "$deb" ||
    fail "dpkg -i failed (missing dependencies? bash scripts/dev.sh test installs them)"
[ "$(pkg_status)" = "ii " ] || fail "after dpkg -i the package is '$(pkg_status)', not installed"

step "checking the service user, the data directory and the unit"
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd gatehouse) || fail "no user gatehouse"
getent group gatehouse >/dev/null || fail "no group gatehouse"
[ "$uid" -lt 1000 ] || fail "gatehouse is not a system user (uid $uid)"
[ "$home" = "$DATA_DIR" ] || fail "the home of gatehouse is $home, not $DATA_DIR"
[ "$shell" = /usr/sbin/nologin ] || fail "the shell of gatehouse is $shell, not /usr/sbin/nologin"
expect_stat() { # path owner:group mode
    local got
    got="$(as_root stat -c '%U:%G %a' "$1")" || fail "$1 does not exist"
    [ "$got" = "$2 $3" ] || fail "$1 is $got, expected $2 $3"
}
expect_stat "$DATA_DIR" gatehouse:gatehouse 750
unit="$unit_path"
[ -f "$unit" ] || fail "$unit is not installed"
[ -L "/etc/systemd/system/multi-user.target.wants/$SERVICE" ] ||
    fail "postinst did not enable $SERVICE (deb-systemd-helper)"
if command -v systemd-analyze >/dev/null 2>&1; then
    as_root systemd-analyze verify "$unit" >"$tmp/verify.log" 2>&1 || {
        cat "$tmp/verify.log" >&2
        fail "systemd-analyze verify $unit"
    }
    # Informational: systemd's own exposure rating of the sandbox.
    as_root systemd-analyze security --offline=true "$unit" 2>/dev/null | tail -n 1 | sed 's/^/    /' || true
else
    echo "    (systemd-analyze not found: unit not verified)"
fi

# ---- 4. start the service ------------------------------------------------------------------
# Values of a [Service] key in the unit and then its drop-ins, in systemd's order; an empty
# assignment resets the list.
unit_values() {
    local key="$1" file
    {
        as_root cat "$unit"
        for file in $(as_root sh -c "ls $DROPIN_DIR/*.conf 2>/dev/null | sort"); do as_root cat "$file"; done
    } | awk -v key="$key" '
        /^[ \t]*\[/ { section = $0; gsub(/[ \t]/, "", section); next }
        section != "[Service]" || /^[ \t]*[#;]/ { next }
        {
            line = $0; sub(/^[ \t]+/, "", line)
            eq = index(line, "="); if (!eq) next
            k = substr(line, 1, eq - 1); sub(/[ \t]+$/, "", k)
            if (k != key) next
            v = substr(line, eq + 1); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
            if (v == "") { n = 0; next }
            vals[++n] = v
        }
        END { for (i = 1; i <= n; i++) print vals[i] }'
}
last_value() { unit_values "$1" | tail -n 1; }
unquote() { # systemd strips one pair of surrounding quotes
    local v="$1"
    if [[ "$v" =~ ^\"(.*)\"$ || "$v" =~ ^\'(.*)\'$ ]]; then v="${BASH_REMATCH[1]}"; fi
    printf '%s' "$v"
}

ports_value() { # key of ports.json (addresses.KEY for the bound address)
    python3 -c 'import json,sys; d=json.load(sys.stdin); k=sys.argv[1].split(".")
for p in k: d=d[p]
print(d)' "$1" <"$tmp/ports.json"
}

if systemd_running; then
    step "systemctl start $SERVICE"
    as_root systemctl daemon-reload
    as_root systemctl start "$SERVICE"
    as_root systemctl is-active --quiet "$SERVICE" || fail "$SERVICE is not active"
else
    step "no systemd running: starting what $unit says"
    exec_start="$(last_value ExecStart)"
    [ -n "$exec_start" ] || fail "the unit has no ExecStart"
    case "$exec_start" in
    [-@:+!]*) fail "ExecStart prefixes are not emulated: $exec_start" ;;
    *[%\"\'\\]*) fail "specifiers, quotes and escapes in ExecStart are not emulated: $exec_start" ;;
    esac
    read -r -a argv <<<"$exec_start"
    [ -x "${argv[0]}" ] || fail "ExecStart names ${argv[0]}, which is not installed"
    user="$(last_value User)"
    group="$(last_value Group)"
    [ -n "$user" ] || fail "the unit runs as root (no User=); expected a service user"
    [ -n "$group" ] || group="$(id -gn "$user")"
    workdir="$(last_value WorkingDirectory)"
    workdir="${workdir#-}"
    umask_value="$(last_value UMask)"
    IFS=: read -r _ _ _ _ _ user_home user_shell < <(getent passwd "$user")
    # systemd's environment for a system service with User=, then Environment=, then the
    # EnvironmentFile= files (which override Environment=).
    env_args=(
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        "LANG=C.UTF-8" "HOME=$user_home" "LOGNAME=$user" "USER=$user" "SHELL=$user_shell"
    )
    while IFS= read -r assignment; do
        [[ "$assignment" == *=*\ *=* ]] && fail "one assignment per Environment= line, please: $assignment"
        env_args+=("$(unquote "$assignment")")
    done < <(unit_values Environment)
    while IFS= read -r env_file; do
        optional=0
        [[ "$env_file" == -* ]] && optional=1 && env_file="${env_file#-}"
        if ! as_root test -f "$env_file"; then
            [ "$optional" = 1 ] && continue
            fail "EnvironmentFile $env_file does not exist"
        fi
        while IFS= read -r line || [ -n "$line" ]; do
            line="${line#"${line%%[![:space:]]*}"}"
            [[ -z "$line" || "$line" == \#* || "$line" == \;* ]] && continue
            [[ "$line" =~ ^([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] ||
                fail "cannot read this line of $env_file: $line"
            env_args+=("${BASH_REMATCH[1]}=$(unquote "${BASH_REMATCH[2]}")")
        done < <(as_root cat "$env_file")
    done < <(unit_values EnvironmentFile)
    echo "    User=$user Group=$group WorkingDirectory=${workdir:-/} UMask=${umask_value:-0022}"
    echo "    ExecStart=$exec_start"
    # NoNewPrivileges and the empty capability sets as setpriv can apply them; the rest of
    # the sandbox (ProtectSystem=, PrivateTmp=, the system call filter) needs systemd.
    # shellcheck disable=SC2016 # $1, $2, $@ are the inner shell's
    launch=(sh -c 'cd "$1" && umask "$2" && shift 2 && exec "$@"' sh "${workdir:-/}" "${umask_value:-0022}"
        setpriv --reuid="$user" --regid="$group" --init-groups --no-new-privs
        --inh-caps=-all --bounding-set=-all
        env -i "${env_args[@]}" "${argv[@]}")
    # As root the shell execs into the server, so $! is its pid; through sudo it is sudo's,
    # which relays signals and passes on the exit status.
    # (9<&-: the server must not hold the test's lock.)
    if [ "$(id -u)" -eq 0 ]; then
        "${launch[@]}" >"$tmp/service.log" 2>&1 9<&- &
    else
        # shellcheck disable=SC2024 # the log is ours to write, not root's
        sudo -n "${launch[@]}" >"$tmp/service.log" 2>&1 9<&- &
    fi
    service_pid=$!
fi

step "waiting for $DATA_DIR/ports.json"
deadline=$((SECONDS + START_TIMEOUT))
until as_root cat "$DATA_DIR/ports.json" >"$tmp/ports.json" 2>/dev/null; do
    if [ -n "$service_pid" ] && ! kill -0 "$service_pid" 2>/dev/null; then
        wait "$service_pid" || true
        fail "the service exited before it was ready"
    fi
    [ "$SECONDS" -lt "$deadline" ] || fail "no ports.json after ${START_TIMEOUT}s"
    sleep 0.2
done
# The server writes its own pid; it must be the process we (or systemd) started, running as
# the service user.
main_pid="$(ports_value pid)"
if systemd_running; then
    [ "$main_pid" = "$(as_root systemctl show -p MainPID --value "$SERVICE")" ] ||
        fail "ports.json names pid $main_pid, not the unit's main process"
elif [ "$(id -u)" -eq 0 ]; then
    [ "$main_pid" = "$service_pid" ] || fail "ports.json names pid $main_pid, not the started $service_pid"
fi
[ "$(ps -o user= -p "$main_pid")" = gatehouse ] || fail "pid $main_pid does not run as gatehouse"
service_port="$(ports_value service)"
cluster_port="$(ports_value cluster)"
admin_port="$(ports_value admin)"
for listener in service cluster admin; do
    address="$(ports_value "addresses.$listener")"
    [ "$address" = 127.0.0.1 ] || fail "the $listener listener is on $address, not 127.0.0.1"
done
echo "    service :$service_port, cluster :$cluster_port (TLS), admin :$admin_port"

step "GET /healthz on every listener"
as_root cat "$DATA_DIR/pki/ca.crt" >"$tmp/ca.crt"
expect_ok() { # name curl-args...
    local name="$1" body
    shift
    body="$(curl -sS --fail --max-time 10 "$@")" || fail "$name /healthz did not answer 200"
    [ "$body" = ok ] || fail "$name /healthz answered '$body', expected 'ok'"
    echo "    $name: $body"
}
expect_ok service "http://127.0.0.1:$service_port/healthz"
expect_ok admin "http://127.0.0.1:$admin_port/healthz"
expect_ok cluster --cacert "$tmp/ca.crt" "https://127.0.0.1:$cluster_port/healthz"

step "checking what the service created in $DATA_DIR"
expect_stat "$DATA_DIR" gatehouse:gatehouse 750
expect_stat "$DATA_DIR/admin-token" gatehouse:gatehouse 600
expect_stat "$DATA_DIR/gatehouse.db" gatehouse:gatehouse 600
expect_stat "$DATA_DIR/pki/ca.key" gatehouse:gatehouse 600
expect_stat "$DATA_DIR/pki/server.key" gatehouse:gatehouse 600
# The admin API with the service's own token, through the installed command line as the
# service user; the output is parsed, never printed (the token is not in it, but still).
as_root setpriv --reuid=gatehouse --regid=gatehouse --init-groups env -i HOME="$DATA_DIR" \
    /usr/bin/gatehouse admin status -o json --data-dir "$DATA_DIR" >"$tmp/status.json" ||
    fail "gatehouse admin status against the service failed"
python3 -c 'import json,sys; v=json.load(open(sys.argv[1])).get("version"); sys.exit(v != sys.argv[2])' \
    "$tmp/status.json" "$version" || fail "gatehouse admin status did not report version $version"
# The packaged program runs on mimalloc (linked, not preloaded: the unit sets no LD_PRELOAD).
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])).get("allocator", ""); sys.exit(not a.startswith("mimalloc "))' \
    "$tmp/status.json" || fail "the packaged gatehouse does not run on mimalloc"
echo "    gatehouse admin status: version $version, $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["allocator"])' "$tmp/status.json")"

# ---- 5. stop -------------------------------------------------------------------------------
step "stopping with SIGTERM"
if systemd_running; then
    as_root systemctl stop "$SERVICE"
    result="$(as_root systemctl show -p Result --value "$SERVICE")"
    status="$(as_root systemctl show -p ExecMainStatus --value "$SERVICE")"
    if [ "$result" != success ] || [ "$status" != 0 ]; then
        fail "$SERVICE stopped with Result=$result ExecMainStatus=$status"
    fi
else
    as_root kill -TERM "$main_pid"
    for _ in $(seq 1 300); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$service_pid" 2>/dev/null && fail "the service did not stop within 30 s of SIGTERM"
    set +e
    wait "$service_pid"
    status=$?
    set -e
    service_pid=""
    [ "$status" -eq 0 ] || fail "the service exited with $status after SIGTERM, expected 0"
fi
echo "    exit 0"
as_root test ! -e "$DATA_DIR/ports.json" || fail "ports.json is still there after a clean stop"

# ---- 6. purge ------------------------------------------------------------------------------
step "dpkg --purge $PKG"
as_root dpkg --purge "$PKG"
installed_by_us=0
[ -z "$(pkg_status)" ] || [ "$(pkg_status)" = "un " ] || fail "after the purge the package is '$(pkg_status)'"
for path in /usr/bin/gatehouse "$unit" /etc/default/gatehouse \
    /usr/share/applications/gatehouse.desktop "$DATA_DIR" \
    "/etc/systemd/system/multi-user.target.wants/$SERVICE" \
    "/var/lib/systemd/deb-systemd-helper-enabled/$SERVICE.dsh-also"; do
    as_root test ! -e "$path" -a ! -L "$path" || fail "$path is still there after the purge"
done

echo "==> package: all checks passed in $((SECONDS - started)) s" \
    "(build $((built - started)) s, cpack $((packaged - built)) s, install/run/purge $((SECONDS - packaged)) s)"
