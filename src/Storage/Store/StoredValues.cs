using System.Buffers.Binary;
using System.Text;

namespace RavenLite.Storage.Documents;

/// <summary>Encodings of the small values the document tables hold.</summary>
internal static class StoredValues
{
    public const int EtagKeyLength = 8;

    /// <summary>Etags as table keys are big-endian so byte order is numeric order.</summary>
    public static byte[] EtagKey(long etag)
    {
        var key = new byte[EtagKeyLength];
        WriteEtagKey(key, etag);
        return key;
    }

    /// <summary>As <see cref="EtagKey"/>, into <paramref name="target"/> (for a key on the stack).</summary>
    public static ReadOnlySpan<byte> WriteEtagKey(Span<byte> target, long etag)
    {
        BinaryPrimitives.WriteInt64BigEndian(target, etag);
        return target[..EtagKeyLength];
    }

    public static long ReadEtagKey(ReadOnlySpan<byte> key) => BinaryPrimitives.ReadInt64BigEndian(key);

    public static byte[] Int64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }

    public static long ReadInt64(IReadTransaction tx, StorageTable table, string name) =>
        tx.TryGet(table, Encoding.UTF8.GetBytes(name), out var value) ? BinaryPrimitives.ReadInt64LittleEndian(value) : 0;

    public static void WriteInt64(IWriteTransaction tx, StorageTable table, string name, long value) =>
        tx.Put(table, Encoding.UTF8.GetBytes(name), Int64(value));
}
