using System.Buffers;
using System.Text;
using System.Text.Json;

namespace RavenLite.Indexing.MapReduce;

/// <summary>
/// One map entry of a map/reduce index: the group it belongs to (<see cref="Group"/>, from its key values) and the value
/// of each numeric input of the aggregates (null where the entry has none).
/// </summary>
internal sealed class MapRow(string?[] keys, decimal?[] values)
{
    private string? _group;

    public string?[] Keys { get; } = keys;

    public decimal?[] Values { get; } = values;

    /// <summary>The group's identity: the one key's text when there is one key, not null and not starting with '[' (so
    /// it cannot look like the other form); otherwise the JSON array of the key values.</summary>
    public string Group => _group ??= GroupOf(Keys);

    public static string GroupOf(string?[] keys)
    {
        if (keys is [{ } only] && !only.StartsWith('['))
            return only;
        var buffer = new ArrayBufferWriter<byte>(64);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            foreach (var key in keys)
            {
                if (key is null)
                    writer.WriteNullValue();
                else
                    writer.WriteStringValue(key);
            }
            writer.WriteEndArray();
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    /// <summary>The entries of one document, as kept in its map entry (<see cref="Read(ReadOnlySpan{byte})"/> reads them back).</summary>
    public static byte[] Write(IReadOnlyList<MapRow> rows)
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            Write(rows, writer);
        return stream.ToArray();
    }

    /// <summary>Writes the entries of one document with <paramref name="writer"/> (one reused for every map entry).</summary>
    public static void Write(IReadOnlyList<MapRow> rows, BinaryWriter writer)
    {
        writer.Write7BitEncodedInt(rows.Count);
        foreach (var row in rows)
        {
            writer.Write7BitEncodedInt(row.Keys.Length);
            foreach (var key in row.Keys)
            {
                writer.Write(key is not null);
                if (key is not null)
                    writer.Write(key);
            }
            writer.Write7BitEncodedInt(row.Values.Length);
            foreach (var value in row.Values)
            {
                writer.Write(value.HasValue);
                if (value is { } number)
                    writer.Write(number);
            }
        }
    }

    public static List<MapRow> Read(ReadOnlySpan<byte> bytes)
    {
        using var stream = new MemoryStream(bytes.ToArray());
        using var reader = new BinaryReader(stream, Encoding.UTF8);
        return Read(reader);
    }

    /// <summary>Reads what <see cref="Write(IReadOnlyList{MapRow}, BinaryWriter)"/> wrote.</summary>
    public static List<MapRow> Read(BinaryReader reader)
    {
        var count = reader.Read7BitEncodedInt();
        var rows = new List<MapRow>(count);
        for (var i = 0; i < count; i++)
        {
            var keys = new string?[reader.Read7BitEncodedInt()];
            for (var k = 0; k < keys.Length; k++)
                keys[k] = reader.ReadBoolean() ? reader.ReadString() : null;
            var values = new decimal?[reader.Read7BitEncodedInt()];
            for (var v = 0; v < values.Length; v++)
                values[v] = reader.ReadBoolean() ? reader.ReadDecimal() : null;
            rows.Add(new MapRow(keys, values));
        }
        return rows;
    }
}
