using System.Text.Json;
using Microsoft.Data.Sqlite;

namespace RavenLite.Benchmarks.Peers;

/// <summary>
/// One row read back as a usable document, like RavenLite's: the key, the metadata's JSON text (UTF-8) and the
/// data parsed into a read-only <see cref="JsonDocument"/>. Disposing it returns the parser's pooled buffers.
/// </summary>
internal sealed class SqliteDocument : IDisposable
{
    private readonly JsonDocument _data;

    private SqliteDocument(string key, byte[] metadataJson, JsonDocument data)
    {
        Key = key;
        MetadataJson = metadataJson;
        _data = data;
    }

    public string Key { get; }

    public byte[] MetadataJson { get; }

    public JsonElement Data => _data.RootElement;

    /// <summary>Reads the current row of <c>SELECT key, metadata, data</c>.</summary>
    public static SqliteDocument Read(SqliteDataReader reader)
    {
        // A TEXT column read as byte[] is its UTF-8 text, what JsonDocument parses without transcoding.
        var data = reader.GetFieldValue<byte[]>(2);
        return new SqliteDocument(reader.GetString(0), reader.GetFieldValue<byte[]>(1), JsonDocument.Parse(data));
    }

    public void Dispose() => _data.Dispose();
}
