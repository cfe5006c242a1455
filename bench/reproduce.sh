#!/usr/bin/env bash
# Reproduces docs/benchmarks.md: the whole suite, the million-document case included, in BenchmarkDotNet's short
# job (about 8 minutes on 2 cores, a minute more the first time while the million-document dataset is built), then
# docs/benchmarks.svg from its JSON results. "bash bench/reproduce.sh full" uses the full mode instead.
# "bash bench/reproduce.sh profile" runs the seed query and HTTP classes in the short job under BenchmarkDotNet's
# EventPipe profiler (CPU sampling) and keeps the traces (speedscope and nettrace) under BenchmarkDotNet.Artifacts/profile.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-short}" in
    short) job=(--job short) ;;
    full) job=() ;;
    profile)
        traces=BenchmarkDotNet.Artifacts/profile
        rm -rf "$traces"
        # The program's --profile mode names the classes and the profiler (bench/RavenLite.Benchmarks/Infrastructure/ProfileRun.cs).
        dotnet run -c Release --project bench/RavenLite.Benchmarks -- --profile --job short --artifacts "$traces"
        # Where the time went: under the warm query's benchmark method, and in every stack holding server code.
        : >"$traces/top-frames.md"
        for pair in 'SeedQueryBenchmarks.WarmCache-|SeedQueryBenchmarks.WarmCache()' 'SeedQueryHttpBenchmarks.RavenLiteSeedQuery-|RavenLite.Server!'; do
            trace="$(find "$traces" -name "*${pair%%|*}*.speedscope.json" | sort | tail -1)"
            [ -n "$trace" ] || { echo "No trace for ${pair%%|*} in $traces" >&2; exit 1; }
            { echo "### $(basename "$trace")"; echo
              dotnet run -c Release --project bench/RavenLite.BenchmarkReport -- --top-frames "$trace" "${pair#*|}" 15; echo
            } >>"$traces/top-frames.md"
        done
        cat "$traces/top-frames.md"
        echo "Traces (open a .speedscope.json at https://www.speedscope.app or in a local speedscope; see docs/benchmarks.md, \"Profiling\"):"
        find "$traces" -maxdepth 1 \( -name '*.speedscope.json' -o -name '*.nettrace' \) | sort
        echo "Top frames: $traces/top-frames.md"
        exit 0 ;;
    *) echo "usage: bash bench/reproduce.sh [short|full|profile]  (got '$1')" >&2; exit 2 ;;
esac
rm -rf BenchmarkDotNet.Artifacts/results
# Naming "*Million*" lets the million-document class in; "*" is everything else.
dotnet run -c Release --project bench/RavenLite.Benchmarks -- --filter '*' '*Million*' "${job[@]}"
dotnet run -c Release --project bench/RavenLite.BenchmarkReport -- BenchmarkDotNet.Artifacts/results docs/benchmarks.svg \
    > BenchmarkDotNet.Artifacts/results/all-results.md
echo "Chart: docs/benchmarks.svg; every row: BenchmarkDotNet.Artifacts/results/all-results.md"
