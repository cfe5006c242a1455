using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Scale;

namespace RavenLite.Benchmarks.Query;

/// <summary>
/// <see cref="MapReduceUpdateBenchmarks"/> at 1,000 and 1,000,000 orders in one run, for issue 31's aim (one update
/// under a map/reduce of a million documents within 2x of the same at 1,000). In the million category: it runs only
/// when named (<c>'*Million*'</c>), as putting and reducing a million orders takes minutes.
/// </summary>
[BenchmarkCategory(MillionScaleBenchmarks.Category)]
public class MillionMapReduceUpdateBenchmarks : MapReduceUpdateBenchmarks
{
    /// <inheritdoc />
    [Params(1_000, 1_000_000)]
    public override int Documents { get; set; }
}
