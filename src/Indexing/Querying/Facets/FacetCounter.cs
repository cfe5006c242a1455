using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Lucene.Net.Index;
using Lucene.Net.Util;

namespace RavenLite.Indexing.Querying.Facets;

/// <summary>One facet's counts, fed segment by segment and document by document by <see cref="FacetCollector"/>.</summary>
internal abstract class FacetCounter
{
    public abstract void SetNextReader(AtomicReader reader);

    public abstract void Collect(int doc);

    public abstract FacetResult Result();
}

/// <summary>
/// How one kind of typed value is read: from the single-valued doc values of the first value of each document
/// (sorted bytes for text and decimals, numbers for doubles, instants and counts), and from the
/// <see cref="Extraction.TypedValues.All"/> sorted set of a many-valued document.
/// </summary>
internal sealed record FacetKind<TKey>(
    string DocValuesField,
    bool Sorted,
    byte AllKind,
    Func<BytesRef, TKey>? FromBytes,
    Func<long, TKey>? FromLong,
    IComparer<TKey> Order,
    Func<TKey, string> Format) where TKey : notnull
{
    /// <summary>A value of the <see cref="Extraction.TypedValues.All"/> set, after its kind byte.</summary>
    public TKey FromAll(BytesRef bytes)
    {
        if (Sorted)
            return FromBytes!(new BytesRef(bytes.Bytes, bytes.Offset + 1, bytes.Length - 1));
        return FromLong!(BinaryPrimitives.ReadInt64BigEndian(bytes.Bytes.AsSpan(bytes.Offset + 1, 8)));
    }
}

/// <summary>
/// Counts matches per distinct value of one kind: a single-valued document by its doc-values ordinal (sorted kinds,
/// each distinct value decoded once per segment) or number; a many-valued one once per distinct value of its
/// <see cref="Extraction.TypedValues.All"/> set. A range facet folds the value counts into its ranges at the end, and
/// counts a many-valued document once per range any of its values falls in.
/// </summary>
/// <param name="request">The facet asked for.</param>
/// <param name="allField">The field's <see cref="Extraction.TypedValues.All"/> doc values.</param>
/// <param name="kind">How the kind's values are read.</param>
/// <param name="rangeMask">For a range facet, the ranges a value falls in (bit i for range i); null for a value facet.</param>
/// <param name="sortedRanges">
/// For a range facet of a sorted kind: each range's bounds as doc-values bytes, so a segment's ranges are runs of
/// ordinals found by binary search and no value is decoded.
/// </param>
internal sealed class FacetCounter<TKey>(FacetRequest request, string allField, FacetKind<TKey> kind, Func<TKey, ulong>? rangeMask,
    (BytesRef? From, bool FromInclusive, BytesRef? To, bool ToInclusive)[]? sortedRanges = null)
    : FacetCounter where TKey : notnull
{
    private readonly Dictionary<TKey, long> _counts = [];
    private readonly long[] _rangeCounts = new long[request.Ranges?.Count ?? 0];
    private readonly BytesRef _scratch = new();
    private long _missing;

    private SortedDocValues? _single;
    private int[] _ordCounts = [];
    private int _ordCount;
    private NumericDocValues? _numbers;
    private IBits? _present;
    private SortedSetDocValues? _set;
    private long _setLow, _setHigh;
    private int[] _setCounts = [];
    private ulong[] _setMasks = [];
    private bool[] _setMaskKnown = [];

    public override void SetNextReader(AtomicReader reader)
    {
        FinishSegment();
        if (kind.Sorted)
        {
            _single = reader.GetSortedDocValues(kind.DocValuesField);
            // One buffer for every segment: a segment's distinct values can be many (prices), its matches few.
            _ordCount = _single?.ValueCount ?? 0;
            if (_ordCounts.Length < _ordCount)
                _ordCounts = new int[Math.Max(_ordCount, _ordCounts.Length * 2)];
            else
                Array.Clear(_ordCounts, 0, _ordCount);
        }
        else
        {
            _numbers = reader.GetNumericDocValues(kind.DocValuesField);
            _present = _numbers is null ? null : reader.GetDocsWithField(kind.DocValuesField);
        }
        _set = kind.AllKind == 0 ? null : reader.GetSortedSetDocValues(allField);
        if (_set is null)
            return;
        _setLow = Boundary(_set, kind.AllKind);
        _setHigh = Boundary(_set, (byte)(kind.AllKind + 1));
        var width = (int)(_setHigh - _setLow);
        if (rangeMask is null)
        {
            _setCounts = new int[width];
        }
        else
        {
            _setMasks = new ulong[width];
            _setMaskKnown = new bool[width];
        }
    }

    /// <summary>The first ordinal of the set whose value starts at or after the kind byte.</summary>
    private static long Boundary(SortedSetDocValues set, byte kindByte)
    {
        var found = set.LookupTerm(new BytesRef([kindByte]));
        return found >= 0 ? found : -found - 1;
    }

    public override void Collect(int doc)
    {
        if (_set is not null)
        {
            _set.SetDocument(doc);
            var ord = _set.NextOrd();
            if (ord != SortedSetDocValues.NO_MORE_ORDS)
            {
                CollectMany(ord);
                return;
            }
        }
        if (_single is not null)
        {
            var ord = _single.GetOrd(doc);
            if (ord >= 0)
                _ordCounts[ord]++;
            else
                _missing++;
            return;
        }
        if (_numbers is null || !_present!.Get(doc))
        {
            _missing++;
            return;
        }
        CollectionsMarshal.GetValueRefOrAddDefault(_counts, kind.FromLong!(_numbers.Get(doc)), out _)++;
    }

    /// <summary>A many-valued document: its ordinals come in increasing order, each once; this kind's are one run.</summary>
    private void CollectMany(long ord)
    {
        var any = false;
        ulong mask = 0;
        for (; ord != SortedSetDocValues.NO_MORE_ORDS; ord = _set!.NextOrd())
        {
            if (ord < _setLow)
                continue;
            if (ord >= _setHigh)
                break;
            any = true;
            var at = (int)(ord - _setLow);
            if (rangeMask is null)
            {
                _setCounts[at]++;
                continue;
            }
            if (!_setMaskKnown[at])
            {
                _set!.LookupOrd(ord, _scratch);
                _setMasks[at] = rangeMask(kind.FromAll(_scratch));
                _setMaskKnown[at] = true;
            }
            mask |= _setMasks[at];
        }
        if (!any)
        {
            _missing++;
            return;
        }
        for (; mask != 0; mask &= mask - 1)
            _rangeCounts[System.Numerics.BitOperations.TrailingZeroCount(mask)]++;
    }

    /// <summary>Adds the segment's counted ordinals under their values: each distinct value decoded once.</summary>
    private void FinishSegment()
    {
        if (_single is not null && sortedRanges is not null)
        {
            FoldRanges(_single);
            _single = null;
        }
        if (_single is not null)
        {
            for (var ord = 0; ord < _ordCount; ord++)
            {
                if (_ordCounts[ord] == 0)
                    continue;
                _single.LookupOrd(ord, _scratch);
                CollectionsMarshal.GetValueRefOrAddDefault(_counts, kind.FromBytes!(_scratch), out _) += _ordCounts[ord];
            }
            _single = null;
        }
        if (_set is not null && rangeMask is null)
        {
            for (var at = 0; at < _setCounts.Length; at++)
            {
                if (_setCounts[at] == 0)
                    continue;
                _set.LookupOrd(_setLow + at, _scratch);
                CollectionsMarshal.GetValueRefOrAddDefault(_counts, kind.FromAll(_scratch), out _) += _setCounts[at];
            }
        }
        _set = null;
        _numbers = null;
        _present = null;
    }

    /// <summary>
    /// Ordinals follow the values' order, so each range is a run of ordinals: with the counts made running totals,
    /// a range's count is the difference at its ends.
    /// </summary>
    private void FoldRanges(SortedDocValues single)
    {
        for (var ord = 1; ord < _ordCount; ord++)
            _ordCounts[ord] += _ordCounts[ord - 1];
        for (var i = 0; i < sortedRanges!.Length; i++)
        {
            var (from, fromInclusive, to, toInclusive) = sortedRanges[i];
            var low = from is null ? 0 : Position(single.LookupTerm(from), inclusiveStart: fromInclusive);
            var high = to is null ? _ordCount : Position(single.LookupTerm(to), inclusiveStart: !toInclusive);
            if (high > low)
                _rangeCounts[i] += _ordCounts[high - 1] - (low > 0 ? _ordCounts[low - 1] : 0);
        }
    }

    /// <summary>
    /// The first ordinal at or after a bound: a value found at k starts at k when the bound's own value belongs
    /// after it (<paramref name="inclusiveStart"/>), else at k + 1; one not found starts at its insertion point.
    /// </summary>
    private static int Position(int found, bool inclusiveStart) => found >= 0 ? (inclusiveStart ? found : found + 1) : -found - 1;

    public override FacetResult Result()
    {
        FinishSegment();
        return rangeMask is null ? ValueResult() : RangeResult();
    }

    private FacetResult RangeResult()
    {
        foreach (var (key, count) in _counts)
        {
            for (var mask = rangeMask!(key); mask != 0; mask &= mask - 1)
                _rangeCounts[System.Numerics.BitOperations.TrailingZeroCount(mask)] += count;
        }
        var values = new FacetValue[_rangeCounts.Length];
        for (var i = 0; i < values.Length; i++)
            values[i] = new FacetValue { Value = request.Ranges![i].ToString(), Count = _rangeCounts[i] };
        return new FacetResult { Facet = request.ToString(), Field = request.Field, Values = values, Missing = _missing };
    }

    private FacetResult ValueResult()
    {
        var entries = _counts.ToArray();
        var order = kind.Order;
        if (request.Order == FacetOrder.Value)
            Array.Sort(entries, (a, b) => order.Compare(a.Key, b.Key));
        else
            Array.Sort(entries, (a, b) => a.Value != b.Value ? b.Value.CompareTo(a.Value) : order.Compare(a.Key, b.Key));
        var taken = Math.Min(entries.Length, request.Top ?? int.MaxValue);
        var values = new FacetValue[taken];
        for (var i = 0; i < taken; i++)
            values[i] = new FacetValue { Value = kind.Format(entries[i].Key), Count = entries[i].Value };
        long remaining = 0;
        for (var i = taken; i < entries.Length; i++)
            remaining += entries[i].Value;
        return new FacetResult
        {
            Facet = request.ToString(),
            Field = request.Field,
            Values = values,
            RemainingValues = entries.Length - taken,
            RemainingCount = remaining,
            Missing = _missing,
        };
    }
}
