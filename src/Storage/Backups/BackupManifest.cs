using System.Reflection;
using System.Security.Cryptography;
using System.Text.Json;

namespace RavenLite.Storage.Backups;

/// <summary>
/// What a backup folder holds, kept beside it as <c>manifest.json</c>: when it was taken and by which RavenLite,
/// the last etag and the number of documents it holds, and every file with its size and SHA-256. A backup is
/// restored only after <see cref="Verify"/> finds every file whole, so a damaged or partial one is refused.
/// </summary>
/// <param name="Format">The manifest's format; this RavenLite reads <see cref="CurrentFormat"/> and older.</param>
/// <param name="Version">The RavenLite version that took the backup.</param>
/// <param name="Created">When the backup was taken.</param>
/// <param name="LastEtag">The etag of the last write the backup holds.</param>
/// <param name="Documents">How many documents it holds.</param>
/// <param name="Files">Every file of the backup but the manifest, by path relative to the folder ('/'-separated).</param>
public sealed partial record BackupManifest(int Format, string Version, DateTimeOffset Created, long LastEtag, long Documents,
    IReadOnlyList<BackupFile> Files)
{
    /// <summary>The manifest's file name, in the backup folder's root.</summary>
    public const string FileName = "manifest.json";

    /// <summary>The format this RavenLite writes.</summary>
    public const int CurrentFormat = 1;

    /// <summary>
    /// Lists every file in <paramref name="folder"/> with its size and SHA-256 and writes the manifest there (to a
    /// temporary name first, flushed to disk, then renamed: a manifest is whole or absent).
    /// </summary>
    /// <param name="folder">A finished backup: nothing may be added to it afterwards.</param>
    /// <param name="lastEtag">The etag of the last write it holds.</param>
    /// <param name="documents">How many documents it holds.</param>
    /// <param name="created">When the backup was taken.</param>
    public static BackupManifest Write(string folder, long lastEtag, long documents, DateTimeOffset created)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var root = Path.GetFullPath(folder);
        var files = Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories)
            .Select(path => RelativePath(root, path))
            .Where(path => path is not FileName and not TemporaryFileName)
            .Order(StringComparer.Ordinal)
            .Select(path => Describe(root, path))
            .ToList();
        var manifest = new BackupManifest(CurrentFormat, RavenLiteVersion, created.ToUniversalTime(), lastEtag, documents, files);
        var temporary = Path.Combine(root, TemporaryFileName);
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write))
        {
            manifest.WriteJson(stream);
            stream.Flush(flushToDisk: true);
        }
        File.Move(temporary, Path.Combine(root, FileName), overwrite: true);
        return manifest;
    }

    private const string TemporaryFileName = FileName + ".tmp";

    private static string RavenLiteVersion { get; } =
        typeof(BackupManifest).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    private static string RelativePath(string root, string path) => Path.GetRelativePath(root, path).Replace('\\', '/');

    private static BackupFile Describe(string root, string relativePath)
    {
        using var stream = File.OpenRead(Path.Combine(root, relativePath));
        return new BackupFile(relativePath, stream.Length, Convert.ToHexStringLower(SHA256.HashData(stream)));
    }

    /// <summary>
    /// Reads the manifest in <paramref name="folder"/> without checking the files (<see cref="Verify"/> does that), to
    /// list a backup cheaply.
    /// </summary>
    /// <exception cref="InvalidDataException">There is no manifest, or it cannot be read.</exception>
    public static BackupManifest Read(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var path = Path.Combine(Path.GetFullPath(folder), FileName);
        if (!File.Exists(path))
            throw new InvalidDataException($"'{Path.GetFullPath(folder)}' has no {FileName}: it is not a backup, or one that did not finish.");
        return ReadJson(path);
    }

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

/// <summary>One file of a backup.</summary>
/// <param name="Path">Relative to the backup folder, '/'-separated.</param>
/// <param name="Bytes">Its size.</param>
/// <param name="Sha256">Its SHA-256, as lowercase hex.</param>
public sealed record BackupFile(string Path, long Bytes, string Sha256);
