using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Scale;

/// <summary>
/// The scale queries at 10,000,000 documents (about 6 GB of LMDB plus the index). Left out of a run unless the command
/// line names its category (<c>--filter '*TenMillion*'</c>; <c>'*Million*'</c> alone does not let it in): the dataset
/// takes a long while to build the first time. <c>--scale 10000000</c> reports its build time, size and memory.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory(Category)]
public class TenMillionScaleBenchmarks : ScaleBenchmarkBase
{
    /// <summary>The category the default run and a <c>*Million*</c> run leave out.</summary>
    public const string Category = "TenMillion";

    /// <inheritdoc />
    [Params(10_000_000)]
    public override int Documents { get; set; }
}
