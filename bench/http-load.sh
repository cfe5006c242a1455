#!/usr/bin/env bash
# Load test of the HTTP server with wrk, on loopback only: starts two Release servers on 127.0.0.1 (free ports, temp
# data folders; the second with the query response cache off), loads the seed scenario over HTTP into each (1,024 seed
# carts, entity Item, among 1,024 User documents), and drives four endpoints at 1, 16 and 64 connections: the seed
# query with the response cache on and off, point gets of random carts, and the same bytes as the seed query served
# prebuilt (the floor: `RavenLite.Benchmarks --serve-prebuilt`, the suite's own
# minimal Kestrel endpoint). Then a mixed load on each of the two servers: readers of the seed query and writers
# (PUTs of random seed carts, bench/wrk/put-cart.lua) at once, with read and write requests/s and p99. Prints
# requests/s, p50 and p99 per row and replaces the "wrk load" section of docs/benchmarks.md. About 3.5 minutes with the
# default 10 s per row, plus the build; stops everything it started on exit.
#   bash bench/http-load.sh [seconds-per-row]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-10}"
[[ "$seconds" =~ ^[1-9][0-9]?$ ]] || { echo "usage: bash bench/http-load.sh [seconds-per-row, 1-99]  (got '$seconds')" >&2; exit 2; }
connections=(1 16 64)
carts=1024
users=1024
seed_query='/indexes/Raven/DocumentsByEntityName?query=Tag:Item&pageSize=1024'
docs=docs/benchmarks.md
begin_marker='<!-- http-load.sh: begin (generated; a rerun replaces everything up to the end marker) -->'
end_marker='<!-- http-load.sh: end -->'

source bench/wrk/common.sh
ensure_tool wrk wrk
ensure_tool jq jq
ensure_tool curl curl

work="$(mktemp -d)"
prebuilt_pid=""
stop() {
    # Only the processes this script started, by their ids; SIGTERM lets a server close its database.
    for pid in $prebuilt_pid $(cat "$work"/server-*.pid 2>/dev/null); do
        stop_process "$pid"
    done
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

load_before="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)"
echo "http-load: building (Release)"
dotnet build -c Release -v q --nologo bench/RavenLite.Benchmarks >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
server_dll=src/Server/bin/Release/net10.0/RavenLite.Server.dll
bench_dll=bench/RavenLite.Benchmarks/bin/Release/net10.0/RavenLite.Benchmarks.dll

# Starts a Release server on a free port over its own temp folder (extra options after the name), loads the seed
# scenario into it in one bulk request (carts/0..1023 from testdata/seed-cart.json, users/0..1023), waits for the
# index and prints its address.
start_server() { # name [server options]
    local name="$1"; shift
    dotnet "$server_dll" --data-dir "$work/data-$name" --urls http://127.0.0.1:0 "$@" \
        --Logging:LogLevel:Default=Warning --Logging:LogLevel:Microsoft.Hosting.Lifetime=Information >"$work/server-$name.log" 2>&1 &
    echo $! >"$work/server-$name.pid"
    local address total
    address="$(listening_address "$work/server-$name.log" "$(cat "$work/server-$name.pid")")" || return 1
    curl -sS --fail-with-body --max-time 120 -X POST -H 'Content-Type: application/json' --data-binary @"$work/seed.json" \
        "$address/bulk_docs" -o /dev/null
    total="$(curl -sS --fail-with-body --max-time 90 "$address${seed_query/pageSize=1024/pageSize=0}&waitForNonStaleResults=true&timeout=60" | jq .TotalResults)"
    [ "$total" = "$carts" ] || { echo "http-load: the index found $total carts, expected $carts" >&2; return 1; }
    echo "$address"
}

seed_load "$carts" "$users" >"$work/seed.json"
# Two servers: the default (the response cache answers a repeated query from its stored bytes) and one with the
# response cache off (--query-cache-mb 0), so the seed query is measured both ways.
server="$(start_server cached)"
uncached="$(start_server uncached --query-cache-mb 0)"
echo "http-load: servers on $server (response cache on) and $uncached (off), data in temp folders"
curl -sS --fail-with-body --max-time 30 "$server$seed_query" -o "$work/seed-page.json"
returned="$(jq '.Results | length' "$work/seed-page.json")"
[ "$returned" = "$carts" ] || { echo "http-load: the seed query returned $returned documents, expected $carts" >&2; exit 1; }
curl -sS --fail-with-body --max-time 10 "$server/docs/carts/0" -o /dev/null

# The floor: the same bytes the seed query returned, written whole with a Content-Length.
dotnet "$bench_dll" --serve-prebuilt "$work/seed-page.json" 0 >"$work/prebuilt.log" 2>&1 &
prebuilt_pid=$!
prebuilt="$(listening_address "$work/prebuilt.log" "$prebuilt_pid")"

# name | URL | wrk script | script arguments
scenarios=(
    "seed query (Tag:Item, pageSize 1024, ~$(( $(wc -c <"$work/seed-page.json") / 1024 )) KB)|$server$seed_query|bench/wrk/static.lua|"
    "seed query, response cache off (--query-cache-mb 0)|$uncached$seed_query|bench/wrk/static.lua|"
    "point get (random cart of $carts)|$server/docs/carts/0|bench/wrk/random-cart.lua|$carts"
    "prebuilt bytes (the floor: seed query's body, Content-Length)|$prebuilt/prebuilt|bench/wrk/static.lua|"
)

rows=()
echo "http-load: warming up (2 s per endpoint), then ${#scenarios[@]} endpoints x ${#connections[@]} connection counts x $seconds s"
for scenario in "${scenarios[@]}"; do
    IFS='|' read -r name url script args <<<"$scenario"
    run_wrk 2 4 "$url" "$script" "$args" >/dev/null
done
printf '%-62s %11s %12s %10s %10s\n' endpoint connections requests/s p50 p99
for scenario in "${scenarios[@]}"; do
    IFS='|' read -r name url script args <<<"$scenario"
    for c in "${connections[@]}"; do
        result="$(run_wrk "$seconds" "$c" "$url" "$script" "$args")" \
            || { echo "http-load: wrk failed for $name at $c connections" >&2; exit 1; }
        no_errors "http-load: $name at $c connections" "$result" || exit 1
        rps="$(field rps "$result")"
        p50="$(ms "$(field p50_us "$result")")"
        p99="$(ms "$(field p99_us "$result")")"
        printf '%-62s %11s %12s %10s %10s\n' "$name" "$c" "$rps" "$p50" "$p99"
        rows+=("| $name | $c | $(printf '%.0f' "$rps") | $p50 | $p99 |")
    done
done

# The mixed load: writers (PUTs of random seed carts, the seed cart's body) and readers (the seed query) on one server
# at once, with the response cache on and off. Every write moves the index's version, so the response cache's key.
jq -c .data testdata/seed-cart.json >"$work/cart-data.json"
mixed_readers=16
mixed_writers=(1 4)
mixed_rows=()
echo "http-load: mixed load, $mixed_readers readers of the seed query + 1 or 4 writers of carts, $seconds s per row"
printf '%-22s %9s %9s %12s %10s %12s %10s\n' 'response cache' readers writers 'reads/s' 'read p99' 'writes/s' 'write p99'
for target in "on|$server" "off|$uncached"; do
    IFS='|' read -r cache_state address <<<"$target"
    for writers in "${mixed_writers[@]}"; do
        run_wrk "$seconds" "$writers" "$address/docs/carts/0" bench/wrk/put-cart.lua "$carts" "$work/cart-data.json" >"$work/wrk-writes.txt" &
        writes_pid=$!
        run_wrk "$seconds" "$mixed_readers" "$address$seed_query" bench/wrk/static.lua >"$work/wrk-reads.txt" &
        reads_pid=$!
        wait "$writes_pid" && wait "$reads_pid" \
            || { echo "http-load: wrk failed in the mixed run (cache $cache_state, $writers writers)" >&2; exit 1; }
        writes="$(cat "$work/wrk-writes.txt")"
        reads="$(cat "$work/wrk-reads.txt")"
        no_errors "http-load: the mixed run (cache $cache_state, $writers writers)" "$writes" "$reads" || exit 1
        read_rps="$(printf '%.0f' "$(field rps "$reads")")"
        write_rps="$(printf '%.0f' "$(field rps "$writes")")"
        read_p99="$(ms "$(field p99_us "$reads")")"
        write_p99="$(ms "$(field p99_us "$writes")")"
        printf '%-22s %9s %9s %12s %10s %12s %10s\n' "$cache_state" "$mixed_readers" "$writers" "$read_rps" "$read_p99" "$write_rps" "$write_p99"
        mixed_rows+=("| $cache_state | $mixed_readers | $writers | $read_rps | $read_p99 | $write_rps | $write_p99 |")
    done
done
total="$(curl -sS --fail-with-body --max-time 90 "$server${seed_query/pageSize=1024/pageSize=0}&waitForNonStaleResults=true&timeout=60" | jq .TotalResults)"
[ "$total" = "$carts" ] || { echo "http-load: after the mixed run the index found $total carts, expected $carts" >&2; exit 1; }

# The docs section, between markers, replaced on every run.
{
    echo "$begin_marker"
    echo
    echo "## HTTP under load (wrk load)"
    echo
    commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    [ -z "$(git status --porcelain -- src bench 2>/dev/null)" ] || commit="$commit with uncommitted changes to src/ or bench/"
    echo "\`bash bench/http-load.sh\`, $(date -u '+%Y-%m-%d %H:%M') UTC, commit $commit:"
    echo "$(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2) on 127.0.0.1 against the Release server (LMDB, warm cache) over the seed scenario,"
    echo "$seconds s per row after a 2 s warm-up per endpoint, wrk with up to 2 threads on the same $(nproc) cores as the server"
    echo "($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1))."
    load_note "$load_before"
    echo "This run's own wrk and server share the cores while they run. Read the rows against each other (RavenLite"
    echo "against the prebuilt floor at the same connection count), not as absolute capacity."
    echo
    echo "| endpoint | connections | requests/s | p50 | p99 |"
    echo "|---|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "### Mixed load: writers and readers at once"
    echo
    echo "Two wrk processes on the same server at once for $seconds s per row: $mixed_readers connections reading the seed query"
    echo "and 1 or 4 connections writing (\`PUT /docs/carts/<n>\` of a random seed cart with the seed cart's body, \`Raven-Entity-Name: Item\`,"
    echo "so the query keeps its $carts results). Every write moves the index's version, so the response cache (on: the default"
    echo "server; off: \`--query-cache-mb 0\`) can only answer reads that arrive between two writes and after the indexer caught up."
    echo
    echo "| response cache | readers | writers | reads/s | read p99 | writes/s | write p99 |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${mixed_rows[@]}"
    echo
    echo "$end_marker"
} >"$work/section.md"
replace_section "$docs" "$work/section.md" "$begin_marker" "$end_marker"
echo "http-load: wrote the table into $docs"
