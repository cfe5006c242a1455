using System.Globalization;
using System.Text;

namespace RavenLite;

/// <summary>How a value facet orders its values before <see cref="FacetRequest.Top"/> cuts them.</summary>
public enum FacetOrder
{
    /// <summary>Most documents first; ties by value, ascending.</summary>
    Count = 0,

    /// <summary>By value, ascending (strings in ordinal order, numbers and instants numerically).</summary>
    Value = 1,
}

/// <summary>
/// One facet of a query (<see cref="IndexQuery.Facets"/>): over the documents the query matches, how many have each
/// distinct value of a typed field's kind (<c>Brand</c>, <c>Price@dec</c>), or a value in each of
/// <see cref="Ranges"/>, read from the index's doc values. Over HTTP it is written as <see cref="ToString"/> gives and
/// <see cref="Parse"/> reads: <c>Brand</c>, <c>Brand(top=5)</c>, <c>Brand(top=5,order=value)</c>,
/// <c>Price@dec([* TO 100},[100 TO 500},[500 TO *])</c>.
/// </summary>
public sealed class FacetRequest
{
    /// <summary>
    /// A typed field and the kind of its values: <c>Brand</c> (strings and booleans), <c>Price@dec</c>,
    /// <c>Rating@num</c>, <c>PlacedAt@time</c>, <c>Tags@count</c>, as a sort names it.
    /// </summary>
    public required string Field { get; init; }

    /// <summary>How many values to return, after <see cref="Order"/>; null for every value. The rest are counted in the result's remaining counts. Not for range facets.</summary>
    public int? Top { get; init; }

    /// <summary>The order of the values (value facets only).</summary>
    public FacetOrder Order { get; init; }

    /// <summary>
    /// The ranges to count, in the order given; null or empty for a value facet. Needs a numeric or instant kind
    /// (<c>@dec</c>, <c>@num</c>, <c>@time</c>, <c>@count</c>). At most 64.
    /// </summary>
    public IReadOnlyList<FacetRange>? Ranges { get; init; }

    /// <summary>The most ranges one facet counts.</summary>
    public const int MaxRanges = 64;

    /// <summary>Whether this is a range facet.</summary>
    public bool IsRange => Ranges is { Count: > 0 };

    /// <summary>The HTTP form: <c>Field</c>, <c>Field(top=5,order=value)</c> or <c>Field([0 TO 10},[10 TO *])</c>.</summary>
    public override string ToString()
    {
        var options = new List<string>();
        if (IsRange)
            options.AddRange(Ranges!.Select(range => range.ToString()));
        if (Top is { } top)
            options.Add("top=" + top.ToString(CultureInfo.InvariantCulture));
        if (Order == FacetOrder.Value)
            options.Add("order=value");
        return options.Count == 0 ? Field : $"{Field}({string.Join(',', options)})";
    }

    /// <summary>Reads the HTTP form (<see cref="ToString"/>).</summary>
    /// <exception cref="ArgumentException">The text is not a facet.</exception>
    public static FacetRequest Parse(string text)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(text);
        text = text.Trim();
        var open = text.IndexOf('(', StringComparison.Ordinal);
        var field = (open < 0 ? text : text[..open]).Trim();
        if (field.Length == 0 || field.AsSpan().IndexOfAny(NotInField) >= 0)
            throw Bad(text, "it does not start with a field name");
        if (open < 0)
            return new FacetRequest { Field = field };
        if (!text.EndsWith(')'))
            throw Bad(text, "the options are not closed with ')'");
        var reader = new Reader(text, open + 1, text.Length - 1);
        var ranges = new List<FacetRange>();
        int? top = null;
        var order = FacetOrder.Count;
        while (true)
        {
            reader.SkipSpaces();
            if (reader.AtEnd)
                break;
            if (reader.Peek is '[' or '{')
            {
                ranges.Add(FacetRange.Read(ref reader, text));
            }
            else
            {
                var option = reader.Token(text);
                var equals = option.IndexOf('=', StringComparison.Ordinal);
                var (name, value) = equals < 0 ? (option, "") : (option[..equals].Trim(), option[(equals + 1)..].Trim());
                switch (name)
                {
                    case "top" when int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var n):
                        top = n;
                        break;
                    case "order" when value is "count" or "value":
                        order = value == "value" ? FacetOrder.Value : FacetOrder.Count;
                        break;
                    default:
                        throw Bad(text, $"'{option}' is not an option (top=N, order=count|value, or a range like [0 TO 10}})");
                }
            }
            reader.SkipSpaces();
            if (reader.AtEnd)
                break;
            if (reader.Peek != ',')
                throw Bad(text, $"expected ',' at position {reader.Position}");
            reader.Advance();
        }
        var request = new FacetRequest { Field = field, Top = top, Order = order, Ranges = ranges.Count == 0 ? null : ranges };
        request.Validate();
        return request;
    }

    /// <summary>Checks what does not need the index: a top that is not negative, ranges without top or order, at most <see cref="MaxRanges"/>.</summary>
    /// <exception cref="ArgumentException">The request contradicts itself.</exception>
    public void Validate()
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(Field, nameof(Field));
        if (Top < 0)
            throw new ArgumentException($"Facet '{Field}': top cannot be negative.", nameof(Top));
        if (!Enum.IsDefined(Order))
            throw new ArgumentException($"Facet '{Field}': order {Order} is neither Count nor Value.", nameof(Order));
        if (!IsRange)
            return;
        if (Top is not null || Order != FacetOrder.Count)
            throw new ArgumentException($"Facet '{Field}': a range facet has no top or order; its ranges come back in the order given.", nameof(Ranges));
        if (Ranges!.Count > MaxRanges)
            throw new ArgumentException($"Facet '{Field}': {Ranges.Count} ranges; at most {MaxRanges}.", nameof(Ranges));
        foreach (var range in Ranges)
        {
            if (range is null)
                throw new ArgumentException($"Facet '{Field}': a range is null.", nameof(Ranges));
        }
    }

    private static readonly System.Buffers.SearchValues<char> NotInField = System.Buffers.SearchValues.Create("()[]{},\" ");

    private static ArgumentException Bad(string text, string why) => new($"Facet '{text}': {why}.", nameof(text));

    /// <summary>A cursor over the options between the parentheses.</summary>
    internal ref struct Reader(string text, int position, int end)
    {
        public int Position = position;

        public readonly bool AtEnd => Position >= end;

        public readonly char Peek => text[Position];

        public void Advance() => Position++;

        public void SkipSpaces()
        {
            while (!AtEnd && char.IsWhiteSpace(text[Position]))
                Position++;
        }

        /// <summary>Up to the next ',' (or the end), trimmed.</summary>
        public string Token(string whole)
        {
            var start = Position;
            while (!AtEnd && text[Position] != ',')
                Position++;
            var token = text[start..Position].Trim();
            if (token.Length == 0)
                throw Bad(whole, $"an empty option at position {start}");
            return token;
        }

        /// <summary>A range bound: <c>*</c>, a quoted string (<c>\</c> escapes) or a bare token up to a space, ',', ']' or '}'.</summary>
        public string? Bound(string whole)
        {
            SkipSpaces();
            if (AtEnd)
                throw Bad(whole, "a range ends early");
            if (text[Position] == '"')
            {
                var value = new StringBuilder();
                Position++;
                while (true)
                {
                    if (AtEnd)
                        throw Bad(whole, "a quoted bound is not closed");
                    var c = text[Position++];
                    if (c == '"')
                        return value.ToString();
                    if (c == '\\')
                    {
                        if (AtEnd)
                            throw Bad(whole, "a quoted bound ends with '\\'");
                        c = text[Position++];
                    }
                    value.Append(c);
                }
            }
            var start = Position;
            while (!AtEnd && !char.IsWhiteSpace(text[Position]) && text[Position] is not (',' or ']' or '}'))
                Position++;
            var bare = text[start..Position];
            if (bare.Length == 0)
                throw Bad(whole, $"a range bound is missing at position {start}");
            return bare == "*" ? null : bare;
        }

        public void Expect(string whole, string word)
        {
            SkipSpaces();
            if (Position + word.Length > end || string.CompareOrdinal(text, Position, word, 0, word.Length) != 0)
                throw Bad(whole, $"expected '{word}' at position {Position}");
            Position += word.Length;
        }
    }
}

/// <summary>
/// A range of a range facet, in the query syntax's form: <c>[10 TO 20}</c> (from 10 inclusive to 20 exclusive),
/// <c>{10 TO *]</c>, <c>["2020-01-01T00:00:00Z" TO *]</c>. Bounds are read as the facet's kind reads query terms:
/// numbers for <c>@dec</c>, <c>@num</c> and <c>@count</c>, ISO 8601 date-times (or UTC ticks) for <c>@time</c>.
/// </summary>
public sealed class FacetRange
{
    /// <summary>The lower bound; null for none.</summary>
    public string? From { get; init; }

    /// <summary>Whether <see cref="From"/> itself is in the range (<c>[</c>) or not (<c>{</c>).</summary>
    public bool FromInclusive { get; init; } = true;

    /// <summary>The upper bound; null for none.</summary>
    public string? To { get; init; }

    /// <summary>Whether <see cref="To"/> itself is in the range (<c>]</c>) or not (<c>}</c>).</summary>
    public bool ToInclusive { get; init; }

    /// <summary>The range as written (<c>[10 TO 20}</c>); the name its count comes back under.</summary>
    public override string ToString() =>
        $"{(FromInclusive ? '[' : '{')}{Bound(From)} TO {Bound(To)}{(ToInclusive ? ']' : '}')}";

    private static string Bound(string? value)
    {
        if (value is null)
            return "*";
        if (value.Length > 0 && value != "*" && !value.Any(c => char.IsWhiteSpace(c) || c is ',' or ']' or '}' or '"' or '\\' or '(' or ')'))
            return value;
        return "\"" + value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"";
    }

    /// <summary>Reads one range (<see cref="ToString"/>'s form).</summary>
    /// <exception cref="ArgumentException">The text is not one range.</exception>
    public static FacetRange Parse(string text)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(text);
        var reader = new FacetRequest.Reader(text, 0, text.Length);
        reader.SkipSpaces();
        if (reader.AtEnd || reader.Peek is not ('[' or '{'))
            throw new ArgumentException($"Range '{text}': it does not start with '[' or '{{'.", nameof(text));
        var range = Read(ref reader, text);
        reader.SkipSpaces();
        if (!reader.AtEnd)
            throw new ArgumentException($"Range '{text}': text after the range at position {reader.Position}.", nameof(text));
        return range;
    }

    internal static FacetRange Read(ref FacetRequest.Reader reader, string whole)
    {
        var fromInclusive = reader.Peek == '[';
        reader.Advance();
        var from = reader.Bound(whole);
        reader.SkipSpaces();
        reader.Expect(whole, "TO");
        var to = reader.Bound(whole);
        reader.SkipSpaces();
        if (reader.AtEnd || reader.Peek is not (']' or '}'))
            throw new ArgumentException($"Facet '{whole}': a range is not closed with ']' or '}}' at position {reader.Position}.", nameof(whole));
        var toInclusive = reader.Peek == ']';
        reader.Advance();
        return new FacetRange { From = from, FromInclusive = fromInclusive, To = to, ToInclusive = toInclusive };
    }
}
