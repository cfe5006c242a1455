using System.Globalization;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying.Facets;

/// <summary>
/// Every facet of a query, counted in one pass over its matches from the index's doc values: no document is loaded.
/// </summary>
internal sealed class FacetCollector : ICollector
{
    private readonly FacetCounter[] _counters;

    private FacetCollector(FacetCounter[] counters) => _counters = counters;

    public bool AcceptsDocsOutOfOrder => true;

    /// <summary>Checks every facet against the index (typed field, kind with doc values, bounds) before any is counted.</summary>
    /// <exception cref="ArgumentException">A facet names a field the index lacks as typed, a kind without values, or a bad range.</exception>
    public static FacetCollector Create(IReadOnlyList<FacetRequest> requests, CompiledIndex index)
    {
        var counters = new FacetCounter[requests.Count];
        for (var i = 0; i < counters.Length; i++)
            counters[i] = Counter(requests[i] ?? throw new ArgumentException($"Facet {i} is null.", nameof(requests)), index);
        return new FacetCollector(counters);
    }

    /// <summary>Counts the facets over the query's matches, in the order asked. Once per collector.</summary>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled: checked at each segment and every 4,096 matches, as the page's search is.</exception>
    public IReadOnlyList<FacetResult> Count(IndexSearcher searcher, Query query, CancellationToken cancellationToken = default)
    {
        using (QueryCancellation.Enter(cancellationToken))
            searcher.Search(query, new CancellableCollector(this));
        return [.. _counters.Select(counter => counter.Result())];
    }

    public void SetScorer(Scorer scorer)
    {
    }

    public void SetNextReader(AtomicReaderContext context)
    {
        foreach (var counter in _counters)
            counter.SetNextReader(context.AtomicReader);
    }

    public void Collect(int doc)
    {
        foreach (var counter in _counters)
            counter.Collect(doc);
    }

    private static FacetCounter Counter(FacetRequest request, CompiledIndex index)
    {
        request.Validate();
        var (name, suffix) = TypedValues.Split(request.Field);
        if (index.FindField(name) is not { IsTyped: true })
        {
            throw new ArgumentException(
                $"Facet '{request.Field}': index '{index.Definition.Name}' has no typed field '{name}' (facets read the doc values of fields with Analysis Typed or TypedSearch).",
                nameof(request));
        }
        var all = name + TypedValues.All;
        switch (suffix)
        {
            case TypedValues.Text:
                if (request.IsRange)
                    throw new ArgumentException($"Facet '{request.Field}': ranges need a numeric or instant kind ({name}{TypedValues.Decimal}, {name}{TypedValues.Number}, {name}{TypedValues.Instant} or {name}{TypedValues.Count}).", nameof(request));
                return new FacetCounter<string>(request, all, new FacetKind<string>(name, true, TypedValues.AllText,
                    bytes => bytes.Utf8ToString(), null, StringComparer.Ordinal, text => text), null);
            case TypedValues.Decimal:
                return new FacetCounter<decimal>(request, all, new FacetKind<decimal>(name + suffix, true, TypedValues.AllDecimal,
                    DecodeDecimal, null, Comparer<decimal>.Default, value => value.ToString(CultureInfo.InvariantCulture)),
                    Masks<decimal>(request, ParseDecimal), DecimalRanges(request));
            case TypedValues.Number:
                return new FacetCounter<double>(request, all, new FacetKind<double>(name + suffix, false, TypedValues.AllNumber,
                    null, BitConverter.Int64BitsToDouble, Comparer<double>.Default, value => value.ToString("R", CultureInfo.InvariantCulture)),
                    Masks<double>(request, text => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) ? value : null));
            case TypedValues.Instant:
                return new FacetCounter<long>(request, all, new FacetKind<long>(name + suffix, false, TypedValues.AllInstant,
                    null, ticks => ticks, Comparer<long>.Default, ticks => new DateTime(ticks, DateTimeKind.Utc).ToString("O", CultureInfo.InvariantCulture)),
                    Masks<long>(request, text => TypedValues.TryParseInstantQuery(text, out var ticks) && ticks is >= 0 and <= 3155378975999999999 ? ticks : null));
            case TypedValues.Count:
                return new FacetCounter<long>(request, all, new FacetKind<long>(name + suffix, false, 0,
                    null, count => count, Comparer<long>.Default, count => count.ToString(CultureInfo.InvariantCulture)),
                    Masks<long>(request, text => long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var count) ? count : null));
            default:
                throw new ArgumentException(
                    $"Facet '{request.Field}': kind '{suffix}' has no values to count; use {name}, {name}{TypedValues.Decimal}, {name}{TypedValues.Number}, {name}{TypedValues.Instant} or {name}{TypedValues.Count}.",
                    nameof(request));
        }
    }

    /// <summary>
    /// For a range facet, the bit set of the ranges a value falls in (bit i for range i); null for a value facet.
    /// </summary>
    private static Func<T, ulong>? Masks<T>(FacetRequest request, Func<string, T?> parse) where T : struct, IComparable<T>
    {
        if (!request.IsRange)
            return null;
        var ranges = request.Ranges!.Select(range => (
            From: Bound(request, range.From, parse), range.FromInclusive,
            To: Bound(request, range.To, parse), range.ToInclusive)).ToArray();
        return value =>
        {
            ulong mask = 0;
            for (var i = 0; i < ranges.Length; i++)
            {
                var (from, fromInclusive, to, toInclusive) = ranges[i];
                if (from is { } low && (fromInclusive ? value.CompareTo(low) < 0 : value.CompareTo(low) <= 0))
                    continue;
                if (to is { } high && (toInclusive ? value.CompareTo(high) > 0 : value.CompareTo(high) >= 0))
                    continue;
                mask |= 1UL << i;
            }
            return mask;
        };
    }

    private static decimal? ParseDecimal(string text) =>
        decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;

    /// <summary>A decimal range facet's bounds as the doc values hold them (the sortable encoding's ASCII bytes).</summary>
    private static (BytesRef?, bool, BytesRef?, bool)[]? DecimalRanges(FacetRequest request)
    {
        if (!request.IsRange)
            return null;
        BytesRef? Encode(string? text) => text is null ? null : new BytesRef(TypedValues.EncodeDecimal(Bound(request, text, ParseDecimal)!.Value));
        return [.. request.Ranges!.Select(range => (Encode(range.From), range.FromInclusive, Encode(range.To), range.ToInclusive))];
    }

    private static T? Bound<T>(FacetRequest request, string? text, Func<string, T?> parse) where T : struct =>
        text is null
            ? null
            : parse(text) ?? throw new ArgumentException($"Facet '{request.Field}': range bound '{text}' is not a value of that kind.", nameof(request));

    /// <summary>An encoded decimal's bytes (ASCII) as its value.</summary>
    private static decimal DecodeDecimal(BytesRef bytes)
    {
        Span<char> text = stackalloc char[bytes.Length];
        for (var i = 0; i < text.Length; i++)
            text[i] = (char)bytes.Bytes[bytes.Offset + i];
        return TypedValues.DecodeDecimal(text);
    }
}
