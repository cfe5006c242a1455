using Lucene.Net.Index;
using Lucene.Net.Search;
using RavenLite.Indexing.Extraction;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// A pattern query (wildcard or regular expression) on an exact field that the searcher may run only while no document
/// of the index holds a value of that field longer than a term keeps (<see cref="IndexFields.LongValues"/>): such a
/// value's term is its start, U+0001 and a hash, so a pattern not anchored at the start would miss what the value holds
/// after its start (<c>EndsWith</c>) or match the hash's characters (<c>Contains</c>). Refused then, never answered wrong.
/// </summary>
internal sealed class LongValuesGuard(Query pattern, string field) : Query
{
    private readonly Query _pattern = pattern;

    /// <summary>The pattern query, or a <see cref="QueryException"/> when <paramref name="reader"/> holds a long value of the field.</summary>
    public override Query Rewrite(IndexReader reader)
    {
        if (reader.DocFreq(new Term(IndexFields.LongValues, field)) > 0)
        {
            throw new QueryException(
                $"field '{field}' holds values longer than {IndexFields.MaxTermBytes:N0} bytes of UTF-8, whose terms keep only their " +
                "start: a pattern that does not start at the value's start (EndsWith, Contains, a wildcard or a regular expression) " +
                "cannot be answered exactly on it; equality and StartsWith can.");
        }
        return _pattern;
    }

    public override string ToString(string field) => _pattern.ToString(field);

    public override bool Equals(object? obj) => obj is LongValuesGuard other && other._pattern.Equals(_pattern) && other.Boost == Boost;

    public override int GetHashCode() => HashCode.Combine(_pattern, Boost);
}
