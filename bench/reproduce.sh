#!/usr/bin/env bash
# Reproduces docs/benchmarks.md: the whole suite, the million-document case included, in BenchmarkDotNet's short
# job (about 8 minutes on 2 cores, a minute more the first time while the million-document dataset is built), then
# docs/benchmarks.svg from its JSON results. "bash bench/reproduce.sh full" uses the full mode instead.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-short}" in
    short) job=(--job short) ;;
    full) job=() ;;
    *) echo "usage: bash bench/reproduce.sh [short|full]  (got '$1')" >&2; exit 2 ;;
esac
rm -rf BenchmarkDotNet.Artifacts/results
# Naming "*Million*" lets the million-document class in; "*" is everything else.
dotnet run -c Release --project bench/RavenLite.Benchmarks -- --filter '*' '*Million*' "${job[@]}"
dotnet run -c Release --project bench/RavenLite.BenchmarkReport -- BenchmarkDotNet.Artifacts/results docs/benchmarks.svg \
    > BenchmarkDotNet.Artifacts/results/all-results.md
echo "Chart: docs/benchmarks.svg; every row: BenchmarkDotNet.Artifacts/results/all-results.md"
