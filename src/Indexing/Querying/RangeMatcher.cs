using RavenLite.Indexing.Codecs;
using RavenLite.Indexing.Storage;
using RavenLite.Storage;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// The terms of a field between two encoded terms (null: open), as one key-range scan: string terms compare in
/// code-point order, numeric terms numerically.
/// </summary>
internal sealed class RangeMatcher(int ordinal, byte[]? lower, bool includeLower, byte[]? upper, bool includeUpper) : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage)
    {
        var ids = new List<long>();
        using var cursor = tx.OpenCursor(storage.Postings);
        var start = PostingKeys.FieldTerm(ordinal, lower ?? []);
        for (var found = cursor.Seek(start); found && cursor.Key[0] == ordinal; found = cursor.MoveNext())
        {
            var term = PostingKeys.Term(cursor.Key);
            if (lower is not null && !includeLower && term.SequenceEqual(lower))
                continue;
            if (upper is not null)
            {
                var order = term.SequenceCompareTo(upper);
                if (order > 0 || (order == 0 && !includeUpper))
                    break;
            }
            ids.Add(PostingKeys.DocId(cursor.Key));
        }
        return DocIdSets.FromUnsorted(ids);
    }
}
