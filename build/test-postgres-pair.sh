#!/usr/bin/env bash
# A throw-away PostgreSQL primary and its streaming hot standby, for the failover and read-standby tests.
#   build/test-postgres-pair.sh start sync|async
#       initdb + pg_ctl start of a primary, then pg_basebackup -R of a standby streaming from it, both listening on
#       127.0.0.1 only, on free ports below 32768 (under Linux's default ephemeral range, 32768-60999, so start-standby finds its
#       port free again), in one new temp folder. `sync` makes the standby synchronous
#       (synchronous_standby_names on the primary: a commit returns once the standby has flushed it); `async` does not.
#       Prints lines for `eval`:
#         RAVENLITE_TEST_POSTGRES_PAIR_DIR='/tmp/...'   (what the other commands take)
#         RAVENLITE_TEST_POSTGRES_PRIMARY_PORT=...   RAVENLITE_TEST_POSTGRES_STANDBY_PORT=...
#         RAVENLITE_TEST_POSTGRES_PASSWORD=...       (user ravenlite, database postgres)
#   build/test-postgres-pair.sh kill-primary DIR   pg_ctl stop -m immediate of the primary (a crash: no shutdown checkpoint)
#   build/test-postgres-pair.sh promote DIR        pg_ctl promote of the standby, waiting until it accepts writes
#   build/test-postgres-pair.sh stop-standby DIR   stops the standby (fast): what the primary commits meanwhile does not reach it
#   build/test-postgres-pair.sh start-standby DIR  starts it again on its port (it streams from the primary, if that runs)
#   build/test-postgres-pair.sh stop DIR           stops both (immediate) and deletes the folder
# Every pg_ctl is bounded in time. As root the clusters run as the unprivileged `postgres` user.
set -uo pipefail

find_bin() {
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && [ -x "$dir/pg_basebackup" ] && { echo "$dir"; return 0; }
    done
    command -v pg_basebackup >/dev/null 2>&1 && { dirname "$(command -v pg_basebackup)"; return 0; }
    return 1
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Starts the cluster in $1 on port $2 with the extra server options $3; logs to $1.log.
start_cluster() {
    as_owner "$bin/pg_ctl" -D "$1" -l "$1.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -p $2 -k $dir -c max_connections=200 -c fsync=on $3" >/dev/null 2>&1
}

start() {
    local mode="$1" password primary_port standby_port sync_option=""
    case "$mode" in
        sync) sync_option="-c synchronous_standby_names=ravenlite_standby" ;;
        async) ;;
        *) echo "start needs sync or async" >&2; return 2 ;;
    esac
    bin="$(find_bin)" || { echo "PostgreSQL is not installed (no initdb/pg_basebackup); build/test-postgres.sh start installs it" >&2; return 1; }

    dir="$(mktemp -d "${TMPDIR:-/tmp}/ravenlite-pgpair.XXXXXX")"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir" && chmod 700 "$dir"
    password="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
    printf '%s\n' "$password" >"$dir/pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/pwfile"
    if ! as_owner "$bin/initdb" -D "$dir/primary" -U ravenlite --pwfile="$dir/pwfile" --auth=scram-sha-256 \
            -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        return 1
    fi
    rm -f "$dir/pwfile"

    local started=1
    for _ in 1 2 3 4 5; do
        primary_port=$((20000 + RANDOM % 12000))
        if start_cluster "$dir/primary" "$primary_port" "$sync_option"; then started=0; break; fi
    done
    if [ "$started" -ne 0 ]; then
        tail -n 20 "$dir/primary.log" >&2
        rm -rf "$dir"
        return 1
    fi

    # The standby: a base backup streaming its WAL (-X stream), with standby.signal and primary_conninfo (-R).
    # The application name is the one synchronous_standby_names waits for.
    local conninfo="host=127.0.0.1 port=$primary_port user=ravenlite password=$password application_name=ravenlite_standby"
    if ! as_owner timeout 120 "$bin/pg_basebackup" -d "$conninfo" -D "$dir/standby" -X stream -R \
            >"$dir/basebackup.log" 2>&1; then
        cat "$dir/basebackup.log" >&2
        stop_all
        return 1
    fi
    started=1
    for _ in 1 2 3 4 5; do
        standby_port=$((20000 + RANDOM % 12000))
        [ "$standby_port" -eq "$primary_port" ] && continue
        if start_cluster "$dir/standby" "$standby_port" "-c hot_standby=on"; then started=0; break; fi
    done
    if [ "$started" -ne 0 ]; then
        tail -n 20 "$dir/standby.log" >&2
        stop_all
        return 1
    fi
    # Streaming before returning: a synchronous primary would otherwise hold its first commits until the standby connects.
    local streaming=""
    for _ in $(seq 1 100); do
        streaming="$(PGPASSWORD="$password" timeout 5 "$bin/psql" -h 127.0.0.1 -p "$primary_port" -U ravenlite -d postgres -tAc \
            "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'" 2>/dev/null)"
        [ "$streaming" = "1" ] && break
        sleep 0.1
    done
    if [ "$streaming" != "1" ]; then
        echo "the standby did not start streaming" >&2
        tail -n 20 "$dir/standby.log" >&2
        stop_all
        return 1
    fi
    echo "$standby_port" >"$dir/standby.port"
    echo "RAVENLITE_TEST_POSTGRES_PAIR_DIR='$dir'"
    echo "RAVENLITE_TEST_POSTGRES_PRIMARY_PORT=$primary_port"
    echo "RAVENLITE_TEST_POSTGRES_STANDBY_PORT=$standby_port"
    echo "RAVENLITE_TEST_POSTGRES_PASSWORD=$password"
}

kill_primary() {
    as_owner "$bin/pg_ctl" -D "$dir/primary" -m immediate -w -t 30 stop >/dev/null
}

promote() {
    as_owner "$bin/pg_ctl" -D "$dir/standby" -w -t 60 promote >/dev/null
}

stop_standby() {
    as_owner "$bin/pg_ctl" -D "$dir/standby" -m fast -w -t 30 stop >/dev/null
}

start_standby() {
    start_cluster "$dir/standby" "$(cat "$dir/standby.port")" "-c hot_standby=on" || { tail -n 20 "$dir/standby.log" >&2; return 1; }
}

stop_all() {
    local cluster
    for cluster in primary standby; do
        [ -f "$dir/$cluster/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/$cluster" -m immediate -w -t 30 stop >/dev/null 2>&1
    done
    rm -rf "$dir"
}

command="${1:-}"
case "$command" in
    start) start "${2:-}" ;;
    kill-primary | promote | stop-standby | start-standby | stop)
        dir="${2:?$command needs the folder start printed}"
        [ -d "$dir" ] || { [ "$command" = stop ] && exit 0; echo "no such folder: $dir" >&2; exit 1; }
        bin="$(find_bin)" || exit 1
        case "$command" in
            kill-primary) kill_primary ;;
            promote) promote ;;
            stop-standby) stop_standby ;;
            start-standby) start_standby ;;
            stop) stop_all ;;
        esac
        ;;
    *) echo "usage: $0 start sync|async | kill-primary DIR | promote DIR | stop-standby DIR | start-standby DIR | stop DIR" >&2; exit 2 ;;
esac
