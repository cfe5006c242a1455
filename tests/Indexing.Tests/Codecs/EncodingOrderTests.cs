using RavenLite.Indexing.Codecs;

namespace RavenLite.Indexing.Tests.Codecs;

public sealed class EncodingOrderTests
{
    [Fact]
    public void Long_terms_sort_as_numbers()
    {
        long[] values = [long.MinValue, -1_000_000, -2, -1, 0, 1, 2, 255, 256, 1_000_000, long.MaxValue];
        var encoded = values.Select(TermEncoding.LongTerm).ToList();
        Assert.Equal(encoded, encoded.Order(ByteArrayComparer.Instance));
        Assert.All(values, v => Assert.Equal(v, SortableNumbers.ReadInt64(TermEncoding.LongTerm(v))));
    }

    [Fact]
    public void Double_terms_sort_as_numbers()
    {
        double[] values = [double.NegativeInfinity, double.MinValue, -1e300, -6.66, -1, -double.Epsilon, 0, double.Epsilon, 1e-300, 1, 6.66, 1e300, double.MaxValue, double.PositiveInfinity];
        var encoded = values.Select(TermEncoding.DoubleTerm).ToList();
        Assert.Equal(encoded, encoded.Order(ByteArrayComparer.Instance));
        Assert.All(values, v => Assert.Equal(v, SortableNumbers.ReadDouble(TermEncoding.DoubleTerm(v))));
        Assert.Equal(TermEncoding.DoubleTerm(0.0), TermEncoding.DoubleTerm(-0.0));
    }

    [Fact]
    public void Random_doubles_keep_their_order()
    {
        var random = new Random(1234);
        var values = Enumerable.Range(0, 2000).Select(_ => (random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-20, 20))).ToList();
        var byNumber = values.Order().Select(TermEncoding.DoubleTerm).ToList();
        var byBytes = values.Select(TermEncoding.DoubleTerm).Order(ByteArrayComparer.Instance).ToList();
        Assert.Equal(byNumber, byBytes);
    }

    [Fact]
    public void String_terms_keep_code_point_order_and_no_term_prefixes_another()
    {
        string[] values = ["", "a", "a\0", "a\0b", "ab", "b", "é", "日"];
        var encoded = values.Select(TermEncoding.StringTerm).ToList();
        Assert.Equal(encoded, encoded.Order(ByteArrayComparer.Instance));
        for (var i = 0; i < encoded.Count; i++)
        {
            for (var j = 0; j < encoded.Count; j++)
                Assert.True(i == j || !encoded[j].AsSpan().StartsWith(encoded[i]), $"{values[i]} prefixes {values[j]}");
        }
    }

    [Fact]
    public void Over_long_string_terms_are_cut_at_a_character_boundary()
    {
        var term = TermEncoding.StringTerm(new string('é', 1000));
        Assert.True(term.Length <= TermEncoding.MaxEscapedStringBytes + 2);
        Assert.Equal(new string('é', (term.Length - 2) / 2), System.Text.Encoding.UTF8.GetString(term.AsSpan(0, term.Length - 2)));
    }

    [Fact]
    public void Positions_round_trip_through_varints()
    {
        List<int> positions = [0, 1, 5, 127, 128, 300, 100_000];
        Assert.Equal(positions, VarInt.DecodePositions(VarInt.EncodePositions(positions)));
    }
}
