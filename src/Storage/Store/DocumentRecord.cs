using System.Buffers.Binary;
using System.Text;
using RavenLite.Storage.Bson;

namespace RavenLite.Storage.Documents;

/// <summary>
/// The stored form of a document, read in place from the engine's span:
/// <c>etag (8) | last-modified ticks (8) | key length (2) | key | entity-name length (2) | entity name |
/// metadata BSON | data BSON</c>. The two BSON documents carry their own lengths.
/// </summary>
internal readonly ref struct DocumentRecord
{
    private const int FixedHeader = 8 + 8 + 2;

    public DocumentRecord(ReadOnlySpan<byte> span)
    {
        if (span.Length < FixedHeader + 2 + 10)
            throw Corrupt("shorter than its header");
        Etag = BinaryPrimitives.ReadInt64LittleEndian(span);
        LastModifiedTicks = BinaryPrimitives.ReadInt64LittleEndian(span[8..]);
        var keyLength = BinaryPrimitives.ReadUInt16LittleEndian(span[16..]);
        KeyBytes = span.Slice(FixedHeader, keyLength);
        var rest = span[(FixedHeader + keyLength)..];
        var entityLength = BinaryPrimitives.ReadUInt16LittleEndian(rest);
        EntityNameBytes = rest.Slice(2, entityLength);
        rest = rest[(2 + entityLength)..];
        var metadataLength = BsonCodec.DeclaredLength(rest);
        if (metadataLength < 5 || metadataLength > rest.Length - 5)
            throw Corrupt("metadata length out of range");
        MetadataBson = rest[..metadataLength];
        DataBson = rest[metadataLength..];
        if (BsonCodec.DeclaredLength(DataBson) != DataBson.Length)
            throw Corrupt("data length does not match");
    }

    public long Etag { get; }

    /// <summary>The etag alone, without decoding the rest: what a cache lookup needs.</summary>
    public static long ReadEtag(ReadOnlySpan<byte> span) =>
        span.Length >= FixedHeader ? BinaryPrimitives.ReadInt64LittleEndian(span) : throw Corrupt("shorter than its header");

    public long LastModifiedTicks { get; }

    public ReadOnlySpan<byte> KeyBytes { get; }

    public ReadOnlySpan<byte> EntityNameBytes { get; }

    public ReadOnlySpan<byte> MetadataBson { get; }

    public ReadOnlySpan<byte> DataBson { get; }

    public string Key => Encoding.UTF8.GetString(KeyBytes);

    public string? EntityName => EntityNameBytes.IsEmpty ? null : Encoding.UTF8.GetString(EntityNameBytes);

    public DateTimeOffset LastModified => new(LastModifiedTicks, TimeSpan.Zero);

    public static byte[] Build(long etag, DateTimeOffset lastModified, string key, string? entityName,
        ReadOnlySpan<byte> metadataBson, ReadOnlySpan<byte> dataBson)
    {
        var record = new byte[Size(key, entityName, metadataBson, dataBson)];
        Write(record, etag, lastModified, key, entityName, metadataBson, dataBson);
        return record;
    }

    /// <summary>How many bytes <see cref="Write"/> writes for these parts.</summary>
    /// <exception cref="ArgumentException">The entity name is longer than 65,535 bytes.</exception>
    public static int Size(string key, string? entityName, ReadOnlySpan<byte> metadataBson, ReadOnlySpan<byte> dataBson)
    {
        var entityLength = entityName is null ? 0 : Encoding.UTF8.GetByteCount(entityName);
        if (entityLength > ushort.MaxValue)
            throw new ArgumentException("Raven-Entity-Name is longer than 65,535 bytes.");
        return FixedHeader + Encoding.UTF8.GetByteCount(key) + 2 + entityLength + metadataBson.Length + dataBson.Length;
    }

    /// <summary>Writes the record of these parts at the start of <paramref name="target"/>, which holds <see cref="Size"/> bytes or more.</summary>
    /// <returns>The record's length.</returns>
    public static int Write(Span<byte> target, long etag, DateTimeOffset lastModified, string key, string? entityName,
        ReadOnlySpan<byte> metadataBson, ReadOnlySpan<byte> dataBson)
    {
        BinaryPrimitives.WriteInt64LittleEndian(target, etag);
        BinaryPrimitives.WriteInt64LittleEndian(target[8..], lastModified.UtcTicks);
        var keyLength = Encoding.UTF8.GetBytes(key, target[FixedHeader..]);
        BinaryPrimitives.WriteUInt16LittleEndian(target[16..], (ushort)keyLength);
        var at = FixedHeader + keyLength;
        var entityLength = entityName is null ? 0 : Encoding.UTF8.GetBytes(entityName, target[(at + 2)..]);
        BinaryPrimitives.WriteUInt16LittleEndian(target[at..], (ushort)entityLength);
        at += 2 + entityLength;
        metadataBson.CopyTo(target[at..]);
        dataBson.CopyTo(target[(at + metadataBson.Length)..]);
        return at + metadataBson.Length + dataBson.Length;
    }

    private static StorageCorruptedException Corrupt(string what) =>
        new($"A stored document record is damaged: {what}.");
}
