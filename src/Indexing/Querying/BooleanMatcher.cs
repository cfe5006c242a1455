using RavenLite.Indexing.Storage;
using RavenLite.Storage;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Lucene's boolean semantics without scores: with required clauses, the documents matching all of them
/// (optional ones then change nothing); otherwise those matching any optional clause; minus every prohibited
/// clause. Only prohibited clauses: every document minus them.
/// </summary>
internal sealed class BooleanMatcher(IReadOnlyList<Matcher> must, IReadOnlyList<Matcher> should, IReadOnlyList<Matcher> mustNot)
    : Matcher
{
    public override long[] Match(IReadTransaction tx, IndexStorage storage)
    {
        long[] result;
        if (must.Count > 0)
        {
            result = must[0].Match(tx, storage);
            for (var i = 1; i < must.Count && result.Length > 0; i++)
                result = DocIdSets.Intersect(result, must[i].Match(tx, storage));
        }
        else if (should.Count > 0)
        {
            result = [];
            foreach (var clause in should)
                result = DocIdSets.Union(result, clause.Match(tx, storage));
        }
        else
        {
            result = new AllMatcher().Match(tx, storage);
        }
        foreach (var clause in mustNot)
        {
            if (result.Length == 0)
                break;
            result = DocIdSets.Except(result, clause.Match(tx, storage));
        }
        return result;
    }
}
