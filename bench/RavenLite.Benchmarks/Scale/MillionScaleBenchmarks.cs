using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Scale;

/// <summary>
/// The scale queries at 1,000,000 documents. Left out of a run unless the command line names it (for example
/// <c>--filter '*Million*'</c>): building the dataset takes minutes the first time, and the quick mode stays quick.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory(Category)]
public class MillionScaleBenchmarks : ScaleBenchmarkBase
{
    /// <summary>The category the default run leaves out.</summary>
    public const string Category = "Million";

    /// <inheritdoc />
    [Params(1_000_000)]
    public override int Documents { get; set; }
}
