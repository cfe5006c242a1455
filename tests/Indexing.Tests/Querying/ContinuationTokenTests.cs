using Lucene.Net.Util;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Extraction;
using RavenLite.Indexing.Querying;

namespace RavenLite.Indexing.Tests.Querying;

public sealed class ContinuationTokenTests
{
    private static readonly CompiledIndex s_index = new(IndexDefinition.FromJson("""
        {"Name": "Idx", "Fields": [{"Name": "Price", "Path": "price", "Sort": "Double"}, {"Name": "Name", "Path": "name", "Sort": "String"},
                                   {"Name": "Count", "Path": "count", "Sort": "Long"}]}
        """));

    private static readonly SortField[] s_sort = SortField.Parse(["-Price", "Name", "Count"], s_index);

    [Fact]
    public void A_token_round_trips_its_page_end()
    {
        var fingerprint = ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort);
        var generation = Guid.NewGuid();
        var after = new PageAfter(12345, [J2N.Numerics.Double.GetInstance(6.66), new BytesRef([1, 2, 3]), null]);

        var decoded = ContinuationToken.Decode(ContinuationToken.Encode(fingerprint, generation, after), fingerprint, generation, s_sort);

        Assert.Equal(12345, decoded.Etag);
        Assert.Equal(6.66, ((J2N.Numerics.Double)decoded.SortValues[0]!).ToDouble());
        Assert.Equal([1, 2, 3], ((BytesRef)decoded.SortValues[1]!).Bytes);
        Assert.Null(decoded.SortValues[2]);
    }

    [Fact]
    public void A_token_of_another_query_sort_or_build_is_refused()
    {
        var generation = Guid.NewGuid();
        var token = ContinuationToken.Encode(ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort), generation, new PageAfter(1, [null, null, null]));

        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:User", s_sort), generation, s_sort));
        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:Item", []), generation, []));
        Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, ContinuationToken.Fingerprint("Idx", "Tag:Item", s_sort), Guid.NewGuid(), s_sort));
    }

    [Theory]
    [InlineData("")]
    [InlineData("not base64 !!")]
    [InlineData("AAAA")]
    public void A_malformed_token_is_refused(string token)
    {
        var ex = Assert.Throws<ArgumentException>(() => ContinuationToken.Decode(token, new byte[8], Guid.Empty, []));
        Assert.Contains("continuation token", ex.Message, StringComparison.Ordinal);
    }
}
