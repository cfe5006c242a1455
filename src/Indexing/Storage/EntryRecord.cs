using System.Buffers.Binary;
using System.Text;

namespace RavenLite.Indexing.Storage;

/// <summary>
/// The per-document entry of an index (doc id -> this), read in place from the engine's span:
/// <c>key length (2) | key (UTF-8, original casing) | document etag (8) | field count (1) | per field: length + 1
/// (2, 0 = no value) and sort value | term count (4) | per term: length (2) and field term</c>. Queries read the key,
/// etag and sort values without decoding the terms; updates and deletes read the terms to remove the old postings.
/// </summary>
internal readonly ref struct EntryRecord
{
    private readonly ReadOnlySpan<byte> _span;

    public EntryRecord(ReadOnlySpan<byte> span) => _span = span;

    public string Key => Encoding.UTF8.GetString(_span[2..KeyEnd]);

    /// <summary>The etag of the document version the entry was built from.</summary>
    public long Etag => BinaryPrimitives.ReadInt64LittleEndian(_span[KeyEnd..]);

    private int KeyEnd => 2 + BinaryPrimitives.ReadUInt16LittleEndian(_span);

    private int SortValuesStart => KeyEnd + 8;

    /// <summary>The sort value of field <paramref name="ordinal"/>; null when the document has none.</summary>
    public byte[]? SortValue(int ordinal)
    {
        var at = SortValuesStart;
        int count = _span[at++];
        if (ordinal >= count)
            return null;
        for (var i = 0; ; i++)
        {
            var lengthPlusOne = BinaryPrimitives.ReadUInt16LittleEndian(_span[at..]);
            at += 2;
            if (i == ordinal)
                return lengthPlusOne == 0 ? null : _span.Slice(at, lengthPlusOne - 1).ToArray();
            if (lengthPlusOne > 0)
                at += lengthPlusOne - 1;
        }
    }

    /// <summary>The field terms the document produced (the prefixes of its postings).</summary>
    public List<byte[]> FieldTerms()
    {
        var at = SortValuesStart;
        int count = _span[at++];
        for (var i = 0; i < count; i++)
        {
            var lengthPlusOne = BinaryPrimitives.ReadUInt16LittleEndian(_span[at..]);
            at += 2 + Math.Max(0, lengthPlusOne - 1);
        }
        var termCount = BinaryPrimitives.ReadInt32LittleEndian(_span[at..]);
        at += 4;
        var terms = new List<byte[]>(termCount);
        for (var i = 0; i < termCount; i++)
        {
            var length = BinaryPrimitives.ReadUInt16LittleEndian(_span[at..]);
            terms.Add(_span.Slice(at + 2, length).ToArray());
            at += 2 + length;
        }
        return terms;
    }

    public static byte[] Build(string key, long etag, byte[]?[] sortValues, ICollection<byte[]> fieldTerms)
    {
        var keyBytes = Encoding.UTF8.GetBytes(key);
        var length = 2 + keyBytes.Length + 8 + 1 + 4;
        foreach (var value in sortValues)
            length += 2 + (value?.Length ?? 0);
        foreach (var term in fieldTerms)
            length += 2 + term.Length;
        var record = new byte[length];
        var span = record.AsSpan();
        BinaryPrimitives.WriteUInt16LittleEndian(span, (ushort)keyBytes.Length);
        keyBytes.CopyTo(span[2..]);
        var at = 2 + keyBytes.Length;
        BinaryPrimitives.WriteInt64LittleEndian(span[at..], etag);
        at += 8;
        span[at++] = (byte)sortValues.Length;
        foreach (var value in sortValues)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(span[at..], (ushort)(value is null ? 0 : value.Length + 1));
            at += 2;
            value?.CopyTo(span[at..]);
            at += value?.Length ?? 0;
        }
        BinaryPrimitives.WriteInt32LittleEndian(span[at..], fieldTerms.Count);
        at += 4;
        foreach (var term in fieldTerms)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(span[at..], (ushort)term.Length);
            term.CopyTo(span[(at + 2)..]);
            at += 2 + term.Length;
        }
        return record;
    }
}
