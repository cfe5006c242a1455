using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// A range facet's float boundary was written as the double the float widens to (0.1f as 0.10000000149011612), while
/// a float member is stored as its shortest text (0.1): the value 0.1f fell below the boundary 0.1f. Boundaries are
/// now written as the query translator writes float values.
/// </summary>
public sealed class FloatFacetBoundTests : IAsyncLifetime
{
    public sealed class Measure
    {
        public string? Id { get; set; }
        public float Ratio { get; set; }
    }

    private static readonly float[] s_ratios = [0.05f, 0.1f, 0.1f, 0.2f, 0.3f, 0.3f, 0.7f];
    private StoreFixture _fixture = null!;

    public async Task InitializeAsync()
    {
        _fixture = await Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start());
        using var session = _fixture.Store.OpenSession();
        foreach (var ratio in s_ratios)
            session.Store(new Measure { Ratio = ratio });
        session.SaveChanges();
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    [Fact]
    public void Float_boundaries_count_each_value_as_CSharp_compares_floats()
    {
        using var session = _fixture.Store.OpenSession();
        var results = session.Query<Measure>().WaitForNonStaleResults(TimeSpan.FromMinutes(1))
            .AggregateByRanges(x => x.Ratio, 0.1f, 0.3f)
            .Execute();

        Assert.Equal(
            [s_ratios.Count(r => r < 0.1f), s_ratios.Count(r => r >= 0.1f && r < 0.3f), s_ratios.Count(r => r >= 0.3f)],
            results[0].Values.Select(v => (int)v.Count));
    }
}
