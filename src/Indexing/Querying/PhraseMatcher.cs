using RavenLite.Indexing.Codecs;
using RavenLite.Indexing.Storage;
using RavenLite.Storage;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Words of a full-text field in order: documents with every word, then those where the words' stored positions
/// line up with their positions in the phrase (stop words leave gaps in both).
/// </summary>
internal sealed class PhraseMatcher(IReadOnlyList<(byte[] FieldTerm, int Offset)> words) : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage)
    {
        long[]? candidates = null;
        foreach (var (fieldTerm, _) in words)
        {
            var ids = new TermMatcher(fieldTerm).Match(tx, storage);
            candidates = candidates is null ? ids : DocIdSets.Intersect(candidates, ids);
            if (candidates.Length == 0)
                return [];
        }
        var matches = new List<long>();
        foreach (var docId in candidates!)
        {
            if (InOrder(tx, storage, docId))
                matches.Add(docId);
        }
        return [.. matches];
    }

    private bool InOrder(IReadTransaction tx, IndexStorage storage, long docId)
    {
        var positions = new int[words.Count][];
        for (var i = 0; i < words.Count; i++)
        {
            positions[i] = tx.TryGet(storage.Postings, PostingKeys.Posting(words[i].FieldTerm, docId), out var value)
                ? VarInt.DecodePositions(value)
                : [];
        }
        foreach (var first in positions[0])
        {
            var start = first - words[0].Offset;
            var all = true;
            for (var i = 1; i < words.Count && all; i++)
                all = Array.BinarySearch(positions[i], start + words[i].Offset) >= 0;
            if (all)
                return true;
        }
        return false;
    }
}
