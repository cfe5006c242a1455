using System.Buffers.Binary;
using System.Text;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>BSON element type bytes.</summary>
internal static class BsonType
{
    public const byte Double = 0x01, String = 0x02, Document = 0x03, Array = 0x04, Binary = 0x05, Undefined = 0x06,
        ObjectId = 0x07, Boolean = 0x08, DateTime = 0x09, Null = 0x0A, Regex = 0x0B, DbPointer = 0x0C, Code = 0x0D,
        Symbol = 0x0E, CodeWithScope = 0x0F, Int32 = 0x10, Timestamp = 0x11, Int64 = 0x12, Decimal128 = 0x13,
        MinKey = 0xFF, MaxKey = 0x7F;
}

/// <summary>Builds BSON byte by byte, including types and shapes the write path never produces.</summary>
internal static class BsonBytes
{
    /// <summary>A document (or array: the same bytes) of the given elements.</summary>
    public static byte[] Doc(params byte[][] elements)
    {
        var length = 4 + elements.Sum(e => e.Length) + 1;
        var doc = new byte[length];
        BinaryPrimitives.WriteInt32LittleEndian(doc, length);
        var at = 4;
        foreach (var element in elements)
        {
            element.CopyTo(doc, at);
            at += element.Length;
        }
        return doc;
    }

    /// <summary>An array: elements named "0", "1", ... as BSON requires.</summary>
    public static byte[] Arr(params (byte Type, byte[] Value)[] items) =>
        Doc([.. items.Select((item, i) => El(item.Type, i.ToString(System.Globalization.CultureInfo.InvariantCulture), item.Value))]);

    public static byte[] El(byte type, string name, byte[] value) => El(type, Encoding.UTF8.GetBytes(name), value);

    public static byte[] El(byte type, byte[] name, byte[] value) => [type, .. name, 0, .. value];

    public static byte[] Str(string value) => Str(Encoding.UTF8.GetBytes(value));

    /// <summary>A length-prefixed string of raw bytes (which need not be valid UTF-8).</summary>
    public static byte[] Str(byte[] utf8) => [.. I32(utf8.Length + 1), .. utf8, 0];

    public static byte[] CStr(string value) => [.. Encoding.UTF8.GetBytes(value), 0];

    public static byte[] Bin(byte subtype, byte[] data) => subtype == 2
        ? [.. I32(data.Length + 4), 2, .. I32(data.Length), .. data]
        : [.. I32(data.Length), subtype, .. data];

    public static byte[] I32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }

    public static byte[] I64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }

    public static byte[] F64(double value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteDoubleLittleEndian(bytes, value);
        return bytes;
    }

    /// <summary>A document holding just <c>"v"</c>: the given value.</summary>
    public static byte[] One(byte type, byte[] value) => Doc(El(type, "v", value));
}
