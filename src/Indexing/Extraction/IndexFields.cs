using System.Buffers.Binary;
using System.Text;
using Lucene.Net.Documents;
using Lucene.Net.Util;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The Lucene fields every document of every index carries besides the definition's own, and the limits on
/// terms and sort values. Internal names start with '@', which a definition's field names cannot.
/// </summary>
internal static class IndexFields
{
    /// <summary>
    /// Sorted DocValues naming the document version indexed: its etag (8 bytes, big-endian, so byte order is etag order)
    /// followed by the key's UTF-8 with its original casing. Queries read key and etag per hit from it, it is the
    /// tie-break of every sort, and a replaced version is found by its etag in it to be deleted
    /// (<see cref="Persistence.IndexedVersionsFilter"/>): no key term is indexed, as a unique term per document was the
    /// largest part of indexing's cost. One doc-values field rather than a binary one for the key and a numeric one for the etag:
    /// Lucene.Net measures binary and numeric doc-values buffers by reflection on every value added.
    /// </summary>
    public const string Version = "@version";

    /// <summary>
    /// Marks a document holding a value longer than <see cref="MaxTermBytes"/>: one term per such value, the name of the
    /// Lucene field it is in. A long value's term keeps only its start (<see cref="ExactTerm"/>), so a pattern that does
    /// not start at the value's start cannot be answered from the terms of a field whose documents carry this mark
    /// (<see cref="Querying.LongValuesGuard"/>).
    /// </summary>
    public const string LongValues = "@long";

    /// <summary>The bytes of <see cref="Version"/> before the key: the etag.</summary>
    public const int VersionEtagBytes = 8;

    /// <summary>
    /// Exact terms up to this many bytes of UTF-8 are the value itself; a longer value's term is its first
    /// <see cref="LongTermPrefixBytes"/> bytes, U+0001 and a SHA-256 of the whole value, so equality stays exact at any
    /// length (Lucene refuses terms over 32,766 bytes).
    /// </summary>
    public const int MaxTermBytes = 16 * 1024;

    /// <summary>How much of a value longer than <see cref="MaxTermBytes"/> its term keeps, for prefixes and ranges.</summary>
    public const int LongTermPrefixBytes = MaxTermBytes - 64;

    /// <summary>String sort values are cut to this many bytes of UTF-8.</summary>
    public const int MaxSortBytes = MaxTermBytes;

    /// <summary>A document's key folded as storage folds it: one value per stored document.</summary>
    public static string KeyTerm(string key) => DocumentKey.Fold(key);

    /// <summary>Writes the <see cref="Version"/> value of (<paramref name="etag"/>, <paramref name="key"/>) into <paramref name="target"/>.</summary>
    public static void SetVersion(BytesRef target, long etag, string key)
    {
        var bytes = Room(target, VersionEtagBytes + Encoding.UTF8.GetMaxByteCount(key.Length));
        BinaryPrimitives.WriteInt64BigEndian(bytes, etag);
        target.Length = VersionEtagBytes + Encoding.UTF8.GetBytes(key, bytes.AsSpan(VersionEtagBytes));
    }

    /// <summary>The etag of a <see cref="Version"/> value.</summary>
    public static long VersionEtag(BytesRef version) => BinaryPrimitives.ReadInt64BigEndian(version.Bytes.AsSpan(version.Offset, VersionEtagBytes));

    /// <summary>The key of a <see cref="Version"/> value.</summary>
    public static string VersionKey(BytesRef version) =>
        Encoding.UTF8.GetString(version.Bytes, version.Offset + VersionEtagBytes, version.Length - VersionEtagBytes);

    /// <summary>
    /// The smallest <see cref="Version"/> value after every version with an etag up to <paramref name="etag"/>: a
    /// search-after point that leaves out the version at <paramref name="etag"/> itself.
    /// </summary>
    public static BytesRef VersionsAfter(long etag)
    {
        var bytes = new byte[VersionEtagBytes];
        BinaryPrimitives.WriteInt64BigEndian(bytes, etag + 1);
        return new BytesRef(bytes);
    }

    /// <summary>The term an exact value is indexed (and queried) as.</summary>
    public static string ExactTerm(string value)
    {
        if (value.Length * 3 <= MaxTermBytes || Encoding.UTF8.GetByteCount(value) <= MaxTermBytes)
            return value;
        var hash = System.Security.Cryptography.SHA256.HashData(Encoding.UTF8.GetBytes(value));
        return Cut(value, LongTermPrefixBytes) + "\u0001" + Convert.ToBase64String(hash);
    }

    /// <summary>
    /// Sets <paramref name="slot"/> to <paramref name="value"/>'s exact term and adds it to <paramref name="mapped"/>; a
    /// value longer than <see cref="MaxTermBytes"/> also adds the <see cref="LongValues"/> mark naming the slot's field.
    /// </summary>
    public static void AddExact(Document mapped, Field slot, string value)
    {
        var term = ExactTerm(value);
        slot.SetStringValue(term);
        mapped.Add(slot);
        if (!ReferenceEquals(term, value))
            mapped.Add(new StringField(LongValues, slot.Name, Field.Store.NO));
    }

    /// <summary>Whether a prefix (or the fixed start of a pattern) is longer than what a long value's term keeps of it.</summary>
    public static bool OutgrowsLongTerms(string prefix) =>
        prefix.Length * 3 > LongTermPrefixBytes && Encoding.UTF8.GetByteCount(prefix) > LongTermPrefixBytes;

    /// <summary>Writes the sort value of <paramref name="value"/> (its UTF-8, cut) into <paramref name="target"/>, reusing its buffer.</summary>
    public static void SetSortValue(BytesRef target, string value) => SetUtf8(target, Cut(value, MaxSortBytes));

    /// <summary>
    /// Writes the invariant culture's sort key of <paramref name="value"/> (cut as <see cref="SetSortValue"/> cuts it)
    /// into <paramref name="target"/>: byte order of the keys is the order <see cref="string.Compare(string, string)"/>
    /// gives under the invariant culture, which composes and skips characters as the code-point order does not. A key
    /// is cut to <see cref="MaxSortBytes"/> too: characters that expand (U+FDFA is eighteen letters) make keys many
    /// times their text, past what Lucene holds in a doc value (32,766 bytes); a cut key orders as the whole one up to
    /// the cut and ties after it.
    /// </summary>
    public static void SetCollationKey(BytesRef target, string value)
    {
        var text = Cut(value, MaxSortBytes).AsSpan();
        // One ICU pass for nearly every string, into room for four bytes a character: asking for the length first
        // makes the whole key twice. A key that does not fit (expanding characters) is measured, then made.
        var room = Room(target, Math.Min(MaxSortBytes, text.Length * 4 + 16));
        try
        {
            target.Length = s_collation.GetSortKey(text, room.AsSpan(0, Math.Min(room.Length, MaxSortBytes)));
            return;
        }
        catch (ArgumentException)
        {
            // too long for the room given
        }
        var length = s_collation.GetSortKeyLength(text);
        if (length <= MaxSortBytes)
        {
            target.Length = s_collation.GetSortKey(text, Room(target, length));
            return;
        }
        var whole = System.Buffers.ArrayPool<byte>.Shared.Rent(length);
        try
        {
            s_collation.GetSortKey(text, whole);
            whole.AsSpan(0, MaxSortBytes).CopyTo(Room(target, MaxSortBytes));
            target.Length = MaxSortBytes;
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(whole);
        }
    }

    private static readonly System.Globalization.CompareInfo s_collation = System.Globalization.CultureInfo.InvariantCulture.CompareInfo;

    private static void SetUtf8(BytesRef target, string text) =>
        target.Length = Encoding.UTF8.GetBytes(text, Room(target, Encoding.UTF8.GetMaxByteCount(text.Length)));

    /// <summary>
    /// Readies <paramref name="target"/>'s own buffer for a value of up to <paramref name="length"/> bytes from offset 0,
    /// growing it when too small, and returns it: the reused fields' values are written in place.
    /// </summary>
    private static byte[] Room(BytesRef target, int length)
    {
        if (target.Bytes.Length < length)
            target.Bytes = new byte[Math.Max(length, target.Bytes.Length * 2)];
        target.Offset = 0;
        return target.Bytes;
    }

    /// <summary>Cuts <paramref name="value"/> to at most <paramref name="maxBytes"/> of UTF-8, at a character boundary.</summary>
    private static string Cut(string value, int maxBytes)
    {
        if (value.Length * 3 <= maxBytes || Encoding.UTF8.GetByteCount(value) <= maxBytes)
            return value;
        var bytes = 0;
        var at = 0;
        foreach (var rune in value.EnumerateRunes())
        {
            if (bytes + rune.Utf8SequenceLength > maxBytes)
                break;
            bytes += rune.Utf8SequenceLength;
            at += rune.Utf16SequenceLength;
        }
        return value[..at];
    }
}
