using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Scale;

/// <summary>The scale queries at 1,000 and 100,000 documents (the million sits in <see cref="MillionScaleBenchmarks"/>).</summary>
[MemoryDiagnoser]
public class ScaleBenchmarks : ScaleBenchmarkBase
{
    /// <inheritdoc />
    [Params(1_000, 100_000)]
    public override int Documents { get; set; }
}
