using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

public sealed class ContinuationTokenTests
{
    private static readonly SortField[] s_sort = [new(0, "Price", Descending: true), new(1, "Name", Descending: false)];

    [Fact]
    public void A_token_round_trips_its_hit()
    {
        var fingerprint = ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort);
        var generation = Guid.NewGuid();
        var hit = new Hit(12345, [[1, 2, 3], null]);

        var decoded = ContinuationToken.Decode(ContinuationToken.Encode(fingerprint, generation, hit), fingerprint, generation, 2);

        Assert.Equal(12345, decoded.DocId);
        Assert.Equal([1, 2, 3], decoded.SortValues[0]);
        Assert.Null(decoded.SortValues[1]);
    }

    [Fact]
    public void A_token_of_another_query_sort_or_build_is_refused()
    {
        var generation = Guid.NewGuid();
        var token = ContinuationToken.Encode(ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort), generation, new Hit(1, [null, null]));

        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:User", s_sort), generation, 2));
        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:Item", []), generation, 0));
        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort), Guid.NewGuid(), 2));
    }

    [Theory]
    [InlineData("")]
    [InlineData("not base64 !!")]
    [InlineData("AAAA")]
    public void A_malformed_token_is_refused(string token)
    {
        var ex = Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, new byte[8], Guid.Empty, 0));
        Assert.Contains("continuation token", ex.Message, StringComparison.Ordinal);
    }
}
