using System.Globalization;
using System.Text;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// Well-formed BSON documents from a seeded <see cref="Random"/> (so a failure names its seed), using every type the
/// store can hold, with nesting, empty containers, awkward text and extreme numbers. Unless <paramref name="strict"/>,
/// now and then a boolean byte other than 0 or 1 and names or text that are not UTF-8: readers accept those, writes refuse them.
/// </summary>
#pragma warning disable CA5394 // test data, not security
internal sealed class RandomBson(int seed, bool strict = false)
{
    private static readonly byte[] Types =
    [
        BsonType.Double, BsonType.String, BsonType.Document, BsonType.Array, BsonType.Binary, BsonType.Undefined, BsonType.ObjectId, BsonType.Boolean, BsonType.DateTime, BsonType.Null, BsonType.Regex, BsonType.Code, BsonType.Symbol,
        BsonType.Int32, BsonType.Timestamp, BsonType.Int64,
    ];

    private static readonly double[] Doubles =
    [
        0.0, -0.0, 1, 2.0, -2.5, 0.1, 0.2 + 0.1, 1e300, -1e-300, 1e21, 1e-7, 123456789012345680, double.Epsilon,
        double.MaxValue, double.MinValue, double.NaN, double.PositiveInfinity, double.NegativeInfinity, Math.PI, 6.66,
    ];

    private static readonly long[] Longs = [0, 1, -1, int.MinValue, int.MaxValue, long.MinValue, long.MaxValue, 9007199254740993];

    private readonly Random _random = new(seed);

    /// <summary>A document nested at most <paramref name="maxDepth"/> levels below the root.</summary>
    public byte[] Document(int maxDepth = 4) => Container(isArray: false, maxDepth);

    /// <summary>Text mixing ASCII, escapes, controls, every UTF-8 width, U+2028/U+2029, noncharacters and emoji.</summary>
    public string Text(int maxLength)
    {
        var text = new StringBuilder();
        for (var count = _random.Next(maxLength + 1); text.Length < count;)
            text.Append(char.ConvertFromUtf32(Scalar()));
        return text.ToString();
    }

    private byte[] Container(bool isArray, int depth)
    {
        var count = _random.Next(4) == 0 ? 0 : _random.Next(1, depth > 0 ? 8 : 12);
        var elements = new byte[count][];
        for (var i = 0; i < count; i++)
        {
            var type = Types[_random.Next(Types.Length)];
            if (depth == 0 && type is BsonType.Document or BsonType.Array)
                type = BsonType.Int32;
            var name = isArray && _random.Next(8) != 0 ? Encoding.ASCII.GetBytes(i.ToString(CultureInfo.InvariantCulture)) : Name();
            elements[i] = El(type, name, Value(type, depth));
        }
        return Doc(elements);
    }

    private byte[] Value(byte type, int depth) => type switch
    {
        BsonType.Double => F64(_random.Next(3) == 0 ? BitConverter.Int64BitsToDouble(_random.NextInt64(long.MinValue, long.MaxValue)) : Doubles[_random.Next(Doubles.Length)]),
        BsonType.String or BsonType.Code or BsonType.Symbol => Str(TextBytes(_random.Next(6) == 0 ? 600 : 24)),
        BsonType.Document or BsonType.Array => Container(type == BsonType.Array, depth - 1),
        BsonType.Binary => Bin(new byte[] { 0, 1, 2, 3, 5, 6, 0x80, 0xFF }[_random.Next(8)], RandomBytes(_random.Next(6) == 0 ? 300 : 20)),
        BsonType.Undefined or BsonType.Null => [],
        BsonType.ObjectId => RandomBytes(12, exactly: true),
        BsonType.Boolean => [!strict && _random.Next(4) == 0 ? (byte)_random.Next(256) : (byte)_random.Next(2)],
        BsonType.DateTime => I64(_random.Next(4) switch
        {
            0 => _random.NextInt64(-62135596800000, 253402300800000), // year 1 to 9999
            1 => -62135596800000,
            2 => 253402300799999,
            _ => 1_700_000_000_000 + _random.Next(),
        }),
        BsonType.Regex => [.. CStr(Text(12).Replace("\0", "", StringComparison.Ordinal)), .. CStr("imsx"[.._random.Next(5)])],
        BsonType.Int32 => I32(_random.Next(3) == 0 ? (int)Longs[_random.Next(5)] : _random.Next(int.MinValue, int.MaxValue)),
        _ => I64(_random.Next(3) == 0 ? Longs[_random.Next(Longs.Length)] : _random.NextInt64(long.MinValue, long.MaxValue)),
    };

    // Long names are rare: each one hands its document to BsonDataReader, and most documents
    // should exercise the transcoder's own walk to the end.
    private byte[] Name() => _random.Next(60) switch
    {
        0 => [],
        < 6 => Encoding.UTF8.GetBytes(Text(10).Replace("\0", "", StringComparison.Ordinal)),
        < 9 when !strict => [.. RandomBytes(10).Where(b => b != 0)], // not UTF-8 at all
        < 12 => Encoding.UTF8.GetBytes("a\"b\\c/d<e>&'\u2028\u00e9\u65e5\U0001F600"),
        12 => Encoding.UTF8.GetBytes(Text(200).Replace("\0", "", StringComparison.Ordinal)),
        13 when !strict => [.. RandomBytes(300).Where(b => b != 0)],
        _ => Encoding.ASCII.GetBytes("key" + _random.Next(20).ToString(CultureInfo.InvariantCulture)),
    };

    /// <summary>Mostly valid UTF-8; now and then raw bytes, which the old reader decoded with replacement characters.</summary>
    private byte[] TextBytes(int maxLength) => !strict && _random.Next(12) == 0
        ? RandomBytes(maxLength)
        : Encoding.UTF8.GetBytes(Text(maxLength));

    private byte[] RandomBytes(int maxLength, bool exactly = false)
    {
        var bytes = new byte[exactly ? maxLength : _random.Next(maxLength + 1)];
        _random.NextBytes(bytes);
        return bytes;
    }

    private int Scalar()
    {
        while (true)
        {
            var scalar = _random.Next(10) switch
            {
                0 => _random.Next(0x20),                        // control characters, NUL included
                1 => "\"\\/<>&'+`\u007f"[_random.Next(10)],
                2 => _random.Next(0x80, 0x800),
                3 => _random.Next(0x800, 0x10000),
                4 => "\u2028\u2029\ufeff\ufffd\ufffe\uffff\u00e9\u65e5"[_random.Next(8)],
                5 => _random.Next(0x10000, 0x110000),
                6 => 0x1F600 + _random.Next(80),                // emoji
                _ => _random.Next(0x20, 0x7f),
            };
            if (scalar is < 0xD800 or > 0xDFFF)
                return scalar;
        }
    }
}
