#!/usr/bin/env bash
# Two RavenLite servers over one PostgreSQL database, loaded with wrk at once, on loopback only: starts a throw-away
# PostgreSQL cluster (build/test-postgres.sh), two Release servers on it (each its own temp data folder: cache and
# Lucene indexes), loads the seed scenario through the first (1,024 seed carts among 1,024 User documents), waits until
# both servers' indexes have it, then drives the seed query and point gets of random carts against both servers
# together. Prints requests/s and p99 per server and replaces the "two servers" section of docs/benchmarks.md.
# Stops everything it started on exit.
#   bash bench/two-server-load.sh [seconds-per-row]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/wrk/common.sh

seconds="${1:-10}"
[[ "$seconds" =~ ^[1-9][0-9]?$ ]] || { echo "usage: bash bench/two-server-load.sh [seconds-per-row, 1-99]  (got '$seconds')" >&2; exit 2; }
connections=(16 64)
carts=1024
users=1024
seed_query='/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=1024'
docs=docs/benchmarks.md
begin_marker='<!-- two-server-load.sh: begin (generated; a rerun replaces everything up to the end marker) -->'
end_marker='<!-- two-server-load.sh: end -->'
ensure_tool wrk wrk
ensure_tool jq jq
ensure_tool curl curl

work="$(mktemp -d)"
postgres_dir=""
stop() {
    # Only the processes this script started, by their ids; SIGTERM lets a server close its database.
    for pid in $(cat "$work"/server-*.pid 2>/dev/null); do
        stop_process "$pid"
    done
    [ -n "$postgres_dir" ] && bash build/test-postgres.sh stop "$postgres_dir"
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

load_before="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)"
postgres_env="$(bash build/test-postgres.sh start)" || { echo "two-server-load: PostgreSQL could not be started" >&2; exit 1; }
eval "$postgres_env"
postgres_dir="$RAVENLITE_TEST_POSTGRES_DIR"
echo "two-server-load: building (Release)"
dotnet build -c Release -v q --nologo src/Server >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
server_dll=src/Server/bin/Release/net10.0/RavenLite.Server.dll

# The connection string goes through the environment, not the command line (it holds a password).
start_server() { # name
    RavenLite__ConnectionString="$RAVENLITE_TEST_POSTGRES" dotnet "$server_dll" --engine postgres \
        --data-dir "$work/data-$1" --urls http://127.0.0.1:0 \
        --Logging:LogLevel:Default=Warning --Logging:LogLevel:Microsoft.Hosting.Lifetime=Information >"$work/server-$1.log" 2>&1 &
    echo $! >"$work/server-$1.pid"
    listening_address "$work/server-$1.log" "$(cat "$work/server-$1.pid")"
}

wait_for_carts() { # address
    local total
    total="$(curl -sS --fail-with-body --max-time 90 "$1${seed_query/pageSize=1024/pageSize=0}&waitForNonStaleResults=true&timeout=60" | jq .TotalResults)"
    [ "$total" = "$carts" ] || { echo "two-server-load: $1's index found $total carts, expected $carts" >&2; return 1; }
}

first="$(start_server a)"
second="$(start_server b)"
seed_load "$carts" "$users" >"$work/seed.json"
curl -sS --fail-with-body --max-time 120 -X POST -H 'Content-Type: application/json' --data-binary @"$work/seed.json" \
    "$first/bulk_docs" -o /dev/null
wait_for_carts "$first"
wait_for_carts "$second"
echo "two-server-load: servers on $first and $second over one PostgreSQL database; the seed written through the first"

# name | path | wrk script | script arguments
scenarios=(
    "seed query (Tag:Item, pageSize 1024)|$seed_query|bench/wrk/static.lua|"
    "point get (random cart of $carts)|/docs/carts/0|bench/wrk/random-cart.lua|$carts"
)

echo "two-server-load: warming up (2 s per endpoint and server), then ${#scenarios[@]} endpoints x ${#connections[@]} connection counts x $seconds s"
for scenario in "${scenarios[@]}"; do
    IFS='|' read -r name path script args <<<"$scenario"
    run_wrk 2 4 "$first$path" "$script" "$args" >/dev/null
    run_wrk 2 4 "$second$path" "$script" "$args" >/dev/null
done

rows=()
printf '%-40s %12s %14s %14s %12s %12s\n' endpoint connections 'A requests/s' 'B requests/s' 'A p99' 'B p99'
for scenario in "${scenarios[@]}"; do
    IFS='|' read -r name path script args <<<"$scenario"
    for c in "${connections[@]}"; do
        run_wrk "$seconds" "$c" "$first$path" "$script" "$args" >"$work/wrk-a.txt" &
        wrk_a=$!
        run_wrk "$seconds" "$c" "$second$path" "$script" "$args" >"$work/wrk-b.txt" &
        wrk_b=$!
        wait "$wrk_a" && wait "$wrk_b" || { echo "two-server-load: wrk failed for $name at $c connections" >&2; exit 1; }
        a="$(cat "$work/wrk-a.txt")"
        b="$(cat "$work/wrk-b.txt")"
        no_errors "two-server-load: $name at $c connections" "$a" "$b" || exit 1
        rps_a="$(printf '%.0f' "$(field rps "$a")")"
        rps_b="$(printf '%.0f' "$(field rps "$b")")"
        p99_a="$(ms "$(field p99_us "$a")")"
        p99_b="$(ms "$(field p99_us "$b")")"
        printf '%-40s %12s %14s %14s %12s %12s\n' "$name" "$c" "$rps_a" "$rps_b" "$p99_a" "$p99_b"
        rows+=("| $name | $c + $c | $rps_a | $rps_b | $((rps_a + rps_b)) | $p99_a | $p99_b |")
    done
done

{
    echo "$begin_marker"
    echo
    echo "## Two servers over one PostgreSQL database (wrk load)"
    echo
    commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    [ -z "$(git status --porcelain -- src bench 2>/dev/null)" ] || commit="$commit with uncommitted changes to src/ or bench/"
    echo "\`bash bench/two-server-load.sh $seconds\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $commit: two Release servers (A and B) on"
    echo "PostgreSQL 15 (a throw-away cluster on loopback), the seed scenario written through A; two wrk processes (up to 2"
    echo "threads each) load A and B at the same time, $seconds s per row after a 2 s warm-up per endpoint and server. Everything"
    echo "(PostgreSQL, both servers, both wrk) shares the same $(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1))."
    load_note "$load_before"
    echo "On one machine two servers share its cores: the total shows that both serve, not that two servers double the"
    echo "throughput, which needs two machines."
    echo
    echo "| endpoint | connections (A + B) | A requests/s | B requests/s | total requests/s | A p99 | B p99 |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "$end_marker"
} >"$work/section.md"
replace_section "$docs" "$work/section.md" "$begin_marker" "$end_marker"
echo "two-server-load: wrote the table into $docs"
