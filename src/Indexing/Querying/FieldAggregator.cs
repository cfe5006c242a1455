using System.Text;
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
    public static FieldAggregate Run(IndexSearcher searcher, Query query, string aggregate, CompiledIndex index)
    {
        var (name, suffix) = TypedValues.Split(aggregate);
        if (index.FindField(name) is not { IsTyped: true })
            throw new ArgumentException($"Aggregate: '{aggregate}': index '{index.Definition.Name}' has no typed field '{name}'.", nameof(aggregate));
        var collector = suffix switch
        {
            TypedValues.Number => new Collector(aggregate, exact: false, decode: null),
            TypedValues.Decimal => new Collector(aggregate, exact: true, decode: bytes => TypedValues.DecodeDecimal(Encoding.UTF8.GetString(bytes.Bytes, bytes.Offset, bytes.Length))),
            TypedValues.Instant or TypedValues.Count => new Collector(aggregate, exact: true, decode: null),
            _ => throw new ArgumentException(
                $"Aggregate: '{aggregate}' names no kind with values to add up; use {name}{TypedValues.Number}, {name}{TypedValues.Decimal}, {name}{TypedValues.Instant} or {name}{TypedValues.Count}.",
                nameof(aggregate)),
        };
        searcher.Search(query, collector);
        return collector.Result();
    }

    private sealed class Collector(string field, bool exact, Func<BytesRef, decimal>? decode) : ICollector
    {
        private NumericDocValues? _numbers;
        private IBits? _present;
        private SortedDocValues? _sorted;
        private readonly Dictionary<int, decimal> _decoded = [];
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
            _decoded.Clear();
            if (decode is not null)
            {
                _sorted = context.AtomicReader.GetSortedDocValues(field);
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
                if (!_decoded.TryGetValue(ord, out var value))
                {
                    _sorted!.LookupOrd(ord, _scratch);
                    _decoded[ord] = value = decode(_scratch);
                }
                AddExact(value);
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

        private void AddExact(decimal value)
        {
            _count++;
            if (!_overflow)
            {
                try
                {
                    _exactSum += value;
                }
                catch (OverflowException)
                {
                    _overflow = true;
                }
            }
            _exactMin = Math.Min(_exactMin, value);
            _exactMax = Math.Max(_exactMax, value);
        }

        public FieldAggregate Result() => exact
            ? new FieldAggregate
            {
                Field = field,
                Count = _count,
                ExactSum = _overflow ? null : _exactSum,
                ExactMin = _count == 0 ? null : _exactMin,
                ExactMax = _count == 0 ? null : _exactMax,
            }
            : new FieldAggregate
            {
                Field = field,
                Count = _count,
                Sum = _sum,
                Min = _count == 0 ? null : _min,
                Max = _count == 0 ? null : _max,
            };
    }
}
