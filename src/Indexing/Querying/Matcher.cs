using RavenLite.Indexing.Codecs;
using RavenLite.Indexing.Storage;
using RavenLite.Storage;

namespace RavenLite.Indexing.Querying;

/// <summary>A query bound to an index: finds the doc ids it matches, ascending, in one read transaction.</summary>
internal abstract class Matcher
{
    public abstract long[] Match(IReadTransaction tx, IndexStorage storage);

    /// <summary>The doc ids of every posting whose key starts with <paramref name="prefix"/>, in key order.</summary>
    protected static List<long> ScanPostings(IReadTransaction tx, IndexStorage storage, byte[] prefix)
    {
        var ids = new List<long>();
        using var cursor = tx.OpenCursor(storage.Postings);
        for (var found = cursor.Seek(prefix); found && cursor.Key.StartsWith(prefix); found = cursor.MoveNext())
            ids.Add(PostingKeys.DocId(cursor.Key));
        return ids;
    }
}

/// <summary>One term of one field: its postings are already in doc id order.</summary>
internal sealed class TermMatcher(byte[] fieldTerm) : Matcher
{
    public byte[] FieldTerm { get; } = fieldTerm;

    public override long[] Match(IReadTransaction tx, IndexStorage storage) => [.. ScanPostings(tx, storage, FieldTerm)];
}

/// <summary>Every term of a field starting with a prefix (the bare field ordinal: any term of the field).</summary>
internal sealed class PrefixMatcher(byte[] prefix) : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage) =>
        DocIdSets.FromUnsorted(ScanPostings(tx, storage, prefix));
}

/// <summary>Every document of the index (<c>*:*</c>), from the entries table.</summary>
internal sealed class AllMatcher : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage)
    {
        var ids = new List<long>();
        using var cursor = tx.OpenCursor(storage.Entries);
        for (var found = cursor.MoveFirst(); found; found = cursor.MoveNext())
            ids.Add(PostingKeys.ReadDocIdKey(cursor.Key));
        return [.. ids];
    }
}

/// <summary>Nothing (a clause whose words were all stop words, once nothing else is left).</summary>
internal sealed class NothingMatcher : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage) => [];
}
