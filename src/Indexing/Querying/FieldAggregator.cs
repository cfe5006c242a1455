using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Count, sum, minimum and maximum of a typed field's kind over every document a query matches, read from the
/// per-segment doc values the sort uses (the first value of each document): no document is loaded.
/// </summary>
internal static class FieldAggregator
{
    /// <exception cref="ArgumentException">The field is not a typed field of the index, or its kind has no values to aggregate.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled: checked at each segment and every 4,096 matches, as the page's search is.</exception>
    public static FieldAggregate Run(IndexSearcher searcher, Query query, string aggregate, bool sum, CompiledIndex index,
        CancellationToken cancellationToken = default)
    {
        var (name, suffix) = TypedValues.Split(aggregate);
        if (index.FindField(name) is not { IsTyped: true })
            throw new ArgumentException($"Aggregate: '{aggregate}': index '{index.Definition.Name}' has no typed field '{name}'.", nameof(aggregate));
        var collector = suffix switch
        {
            TypedValues.Number => new Collector(aggregate, exact: false, decode: null),
            TypedValues.Decimal => new Collector(aggregate, exact: true, decode: DecodeDecimal, sum),
            TypedValues.Instant or TypedValues.Count => new Collector(aggregate, exact: true, decode: null),
            _ => throw new ArgumentException(
                $"Aggregate: '{aggregate}' names no kind with values to add up; use {name}{TypedValues.Number}, {name}{TypedValues.Decimal}, {name}{TypedValues.Instant} or {name}{TypedValues.Count}.",
                nameof(aggregate)),
        };
        using (QueryCancellation.Enter(cancellationToken))
            searcher.Search(query, new CancellableCollector(collector));
        return collector.Result();
    }

    /// <summary>An encoded decimal's bytes (ASCII) as its value, without making a string.</summary>
    private static decimal DecodeDecimal(BytesRef bytes)
    {
        Span<char> text = stackalloc char[bytes.Length];
        for (var i = 0; i < text.Length; i++)
            text[i] = (char)bytes.Bytes[bytes.Offset + i];
        return TypedValues.DecodeDecimal(text);
    }

    /// <summary>
    /// Numbers are added as documents are collected. Exact decimals are read by ordinal (a segment's sorted distinct
    /// values, in numeric order): for a sum each ordinal is counted, so each distinct value is decoded once; for the
    /// least and greatest only the lowest and highest ordinal seen are kept, decoded once per segment.
    /// </summary>
    private sealed class Collector(string field, bool exact, Func<BytesRef, decimal>? decode, bool sum = true) : ICollector
    {
        private NumericDocValues? _numbers;
        private IBits? _present;
        private SortedDocValues? _sorted;
        private int[] _ordCounts = [];
        private int _firstOrd = int.MaxValue, _lastOrd = -1;
        private long _ordsSeen;
        private readonly BytesRef _scratch = new();
        private long _count;
        private double _sum;
        private double _min = double.PositiveInfinity, _max = double.NegativeInfinity;
        private decimal _exactSum, _exactMin = decimal.MaxValue, _exactMax = decimal.MinValue;
        private bool _overflow;

        public bool AcceptsDocsOutOfOrder => true;

        public void SetScorer(Scorer scorer)
        {
        }

        public void SetNextReader(AtomicReaderContext context)
        {
            if (decode is not null)
            {
                FinishSegment();
                _sorted = context.AtomicReader.GetSortedDocValues(field);
                _ordCounts = _sorted is null || !sum ? [] : new int[_sorted.ValueCount];
                return;
            }
            _numbers = context.AtomicReader.GetNumericDocValues(field);
            _present = context.AtomicReader.GetDocsWithField(field);
        }

        public void Collect(int doc)
        {
            if (decode is not null)
            {
                var ord = _sorted?.GetOrd(doc) ?? -1;
                if (ord < 0)
                    return;
                if (sum)
                {
                    _ordCounts[ord]++;
                    return;
                }
                _ordsSeen++;
                _firstOrd = Math.Min(_firstOrd, ord);
                _lastOrd = Math.Max(_lastOrd, ord);
                return;
            }
            if (_numbers is null || _present is null || !_present.Get(doc))
                return;
            var raw = _numbers.Get(doc);
            if (exact)
            {
                AddExact(raw);
                return;
            }
            var number = BitConverter.Int64BitsToDouble(raw);
            _count++;
            _sum += number;
            _min = Math.Min(_min, number);
            _max = Math.Max(_max, number);
        }

        /// <summary>Adds the segment's ordinals: for a sum each counted one, decoded once; else the lowest and highest.</summary>
        private void FinishSegment()
        {
            if (_sorted is null)
                return;
            if (sum)
            {
                for (var ord = 0; ord < _ordCounts.Length; ord++)
                {
                    if (_ordCounts[ord] == 0)
                        continue;
                    _sorted.LookupOrd(ord, _scratch);
                    AddExact(decode!(_scratch), _ordCounts[ord]);
                }
            }
            else if (_lastOrd >= 0)
            {
                _count += _ordsSeen;
                _sorted.LookupOrd(_firstOrd, _scratch);
                _exactMin = Math.Min(_exactMin, decode!(_scratch));
                _sorted.LookupOrd(_lastOrd, _scratch);
                _exactMax = Math.Max(_exactMax, decode!(_scratch));
            }
            (_sorted, _firstOrd, _lastOrd, _ordsSeen) = (null, int.MaxValue, -1, 0);
        }

        private void AddExact(decimal value, int times = 1)
        {
            _count += times;
            if (!_overflow)
            {
                try
                {
                    _exactSum += times == 1 ? value : value * times;
                }
                catch (OverflowException)
                {
                    _overflow = true;
                }
            }
            _exactMin = Math.Min(_exactMin, value);
            _exactMax = Math.Max(_exactMax, value);
        }

        public FieldAggregate Result()
        {
            FinishSegment();
            return exact ? ExactResult() : NumberResult();
        }

        private FieldAggregate ExactResult() => new()
        {
            Field = field,
            Count = _count,
            ExactSum = _overflow || !sum ? null : _exactSum,
            ExactMin = _count == 0 ? null : _exactMin,
            ExactMax = _count == 0 ? null : _exactMax,
        };

        private FieldAggregate NumberResult() => new()
        {
            Field = field,
            Count = _count,
            Sum = _sum,
            Min = _count == 0 ? null : _min,
            Max = _count == 0 ? null : _max,
        };
    }
}
