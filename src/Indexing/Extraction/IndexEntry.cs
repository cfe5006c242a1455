using RavenLite.Indexing.Codecs;

namespace RavenLite.Indexing.Extraction;

/// <summary>What one document gives one index: its postings (field term -> word positions), sort values and errors.</summary>
internal sealed class IndexEntry(string key, long etag, int fieldCount)
{
    public string Key { get; } = key;

    /// <summary>The etag of the document version this entry was built from.</summary>
    public long Etag { get; } = etag;

    /// <summary>Field term (<see cref="PostingKeys.FieldTerm"/>) -> word positions (full-text fields) or null.</summary>
    public Dictionary<byte[], List<int>?> Postings { get; } = new(ByteArrayComparer.Instance);

    /// <summary>Per field ordinal: the sort value of its first value; null when not sortable or missing.</summary>
    public byte[]?[] SortValues { get; } = new byte[]?[fieldCount];

    /// <summary>What could not be indexed, field by field; the rest of the document is indexed regardless.</summary>
    public List<string> Errors { get; } = [];

    public void Add(byte[] fieldTerm, int? position)
    {
        if (!Postings.TryGetValue(fieldTerm, out var positions))
        {
            positions = position is null ? null : [];
            Postings.Add(fieldTerm, positions);
        }
        if (position is { } p)
            positions?.Add(p);
    }
}
