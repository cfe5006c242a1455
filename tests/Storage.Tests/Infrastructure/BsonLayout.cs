using System.Buffers.Binary;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>Where the structural bytes of a well-formed BSON document are, so tests can damage them one at a time.</summary>
internal sealed class BsonLayout
{
    private BsonLayout()
    {
    }

    /// <summary>Offsets of document and array length prefixes (the root's at 0).</summary>
    public List<int> ContainerLengths { get; } = [];

    /// <summary>Offsets of the zero bytes that end documents and arrays.</summary>
    public List<int> ContainerEnds { get; } = [];

    /// <summary>Offsets of element type bytes.</summary>
    public List<int> Types { get; } = [];

    /// <summary>Offsets of the zero bytes that end element names.</summary>
    public List<int> NameEnds { get; } = [];

    /// <summary>Offsets of string (and code, symbol) length prefixes and of binary length prefixes.</summary>
    public List<int> ValueLengths { get; } = [];

    /// <summary>Offsets of the zero bytes that end length-prefixed strings.</summary>
    public List<int> StringEnds { get; } = [];

    /// <summary>Where the text of each string (and code, symbol) starts, and its length without the terminator.</summary>
    public List<(int Start, int Length)> Texts { get; } = [];

    /// <summary>Offsets of boolean value bytes.</summary>
    public List<int> Booleans { get; } = [];

    public static BsonLayout Of(ReadOnlySpan<byte> bson)
    {
        var layout = new BsonLayout();
        layout.Container(bson, 0);
        return layout;
    }

    private void Container(ReadOnlySpan<byte> bson, int start)
    {
        ContainerLengths.Add(start);
        var end = start + BinaryPrimitives.ReadInt32LittleEndian(bson[start..]) - 1;
        var at = start + 4;
        while (at < end)
        {
            var type = bson[at];
            Types.Add(at);
            at = bson[at..].IndexOf((byte)0) + at;
            NameEnds.Add(at);
            at++;
            at += Value(bson, type, at);
        }
        ContainerEnds.Add(end);
    }

    private int Value(ReadOnlySpan<byte> bson, byte type, int at)
    {
        switch (type)
        {
            case BsonType.Document or BsonType.Array:
                Container(bson, at);
                return BinaryPrimitives.ReadInt32LittleEndian(bson[at..]);
            case BsonType.String or BsonType.Code or BsonType.Symbol:
                ValueLengths.Add(at);
                var length = BinaryPrimitives.ReadInt32LittleEndian(bson[at..]);
                StringEnds.Add(at + 4 + length - 1);
                Texts.Add((at + 4, length - 1));
                return 4 + length;
            case BsonType.Binary:
                ValueLengths.Add(at);
                return 5 + BinaryPrimitives.ReadInt32LittleEndian(bson[at..]);
            case BsonType.Regex:
                var pattern = bson[at..].IndexOf((byte)0);
                return pattern + 1 + bson[(at + pattern + 1)..].IndexOf((byte)0) + 1;
            case BsonType.Double or BsonType.DateTime or BsonType.Timestamp or BsonType.Int64:
                return 8;
            case BsonType.Int32:
                return 4;
            case BsonType.Boolean:
                Booleans.Add(at);
                return 1;
            case BsonType.ObjectId:
                return 12;
            default:
                return 0;
        }
    }
}
