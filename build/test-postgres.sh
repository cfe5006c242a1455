#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests of the PostgreSQL engine.
#   build/test-postgres.sh start   initdb + pg_ctl start in a new temp folder, listening on 127.0.0.1 only, on a
#                                  free port; prints two lines for `eval`:
#                                    RAVENLITE_TEST_POSTGRES='Host=...;Port=...;...'   (the tests read this)
#                                    RAVENLITE_TEST_POSTGRES_DIR='/tmp/...'            (what stop removes)
#   build/test-postgres.sh stop DIR  stops that cluster and deletes its folder.
# As root the cluster runs as the unprivileged `postgres` user (PostgreSQL refuses to run as root).
# Installs Debian's postgresql when no initdb is found and this is a root Debian machine.
set -uo pipefail

find_bin() {
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
    done
    command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
    return 1
}

as_owner() { # runs a command as the cluster's owner
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    local bin
    if ! bin="$(find_bin)"; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "installing Debian's postgresql" >&2
            timeout 600 sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql' \
                >/dev/null 2>&1
        fi
        bin="$(find_bin)" || { echo "PostgreSQL is not installed (no initdb)" >&2; return 1; }
    fi

    local dir password port
    dir="$(mktemp -d "${TMPDIR:-/tmp}/ravenlite-pg.XXXXXX")"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir" && chmod 700 "$dir"
    password="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
    printf '%s\n' "$password" >"$dir/pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/pwfile"
    if ! as_owner "$bin/initdb" -D "$dir/data" -U ravenlite --pwfile="$dir/pwfile" --auth=scram-sha-256 \
            -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        return 1
    fi
    rm -f "$dir/pwfile"

    # A free port: try a few random ones until the server starts on one. Below 32768, under Linux's default
    # ephemeral range (32768-60999), so no client connection of the tests holds the port picked.
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 12000))
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
                -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c fsync=on" >/dev/null 2>&1; then
            echo "RAVENLITE_TEST_POSTGRES='Host=127.0.0.1;Port=$port;Username=ravenlite;Password=$password;Database=postgres'"
            echo "RAVENLITE_TEST_POSTGRES_DIR='$dir'"
            return 0
        fi
    done
    tail -n 20 "$dir/server.log" >&2
    rm -rf "$dir"
    return 1
}

stop() {
    local dir="$1" bin
    [ -d "$dir/data" ] || return 0
    bin="$(find_bin)" && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:?stop needs the cluster folder}" ;;
    *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
