using System.Text.Json;

namespace RavenLite.Storage.Backups;

public sealed partial record BackupManifest
{
    private void WriteJson(Stream stream)
    {
        using var writer = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true });
        writer.WriteStartObject();
        writer.WriteNumber("format", Format);
        writer.WriteString("version", Version);
        writer.WriteString("created", Created);
        writer.WriteNumber("lastEtag", LastEtag);
        writer.WriteNumber("documents", Documents);
        writer.WriteStartArray("files");
        foreach (var file in Files)
        {
            writer.WriteStartObject();
            writer.WriteString("path", file.Path);
            writer.WriteNumber("bytes", file.Bytes);
            writer.WriteString("sha256", file.Sha256);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <exception cref="InvalidDataException">The manifest is not one this RavenLite can read.</exception>
    private static BackupManifest ReadJson(string path)
    {
        try
        {
            using var json = JsonDocument.Parse(File.ReadAllBytes(path));
            var root = json.RootElement;
            var format = root.GetProperty("format").GetInt32();
            if (format > CurrentFormat)
                throw new InvalidDataException($"'{path}' has format {format}, from a newer RavenLite; this one reads format {CurrentFormat}.");
            var files = root.GetProperty("files").EnumerateArray()
                .Select(file => new BackupFile(
                    file.GetProperty("path").GetString()!,
                    file.GetProperty("bytes").GetInt64(),
                    file.GetProperty("sha256").GetString()!))
                .ToList();
            return new BackupManifest(format, root.GetProperty("version").GetString()!, root.GetProperty("created").GetDateTimeOffset(),
                root.GetProperty("lastEtag").GetInt64(), root.GetProperty("documents").GetInt64(), files);
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            throw new InvalidDataException($"'{path}' is damaged: {ex.Message}", ex);
        }
    }
}
