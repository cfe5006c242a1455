using System.Globalization;
using System.Text.Json;

namespace RavenLite.Client.Changes;

/// <summary>
/// Reads the server's <c>/changes</c> event stream: document and index events become <see cref="DatabaseChange"/>s,
/// <c>cut-off</c> and <c>closed</c> notices end the stream with their kind, comments (heartbeats) are skipped.
/// </summary>
internal sealed class ChangeEventReader(StreamReader reader)
{
    /// <summary>The next change; null at the end of the stream, with <see cref="EndedBy"/> naming the notice, if any.</summary>
    public async Task<DatabaseChange?> NextAsync(CancellationToken cancellationToken)
    {
        string? name = null, data = null;
        while (await reader.ReadLineAsync(cancellationToken).ConfigureAwait(false) is { } line)
        {
            if (line.Length == 0)
            {
                if (data is null)
                    continue;
                if (name is "put" or "delete" or "index")
                    return Parse(data);
                EndedBy = name;
                return null;
            }
            if (line.StartsWith("event: ", StringComparison.Ordinal))
                name = line[7..];
            else if (line.StartsWith("data: ", StringComparison.Ordinal))
                data = line[6..];
        }
        return null;
    }

    /// <summary>The notice that ended the stream (<c>cut-off</c>, <c>closed</c>); null when the connection just ended.</summary>
    public string? EndedBy { get; private set; }

    private static DatabaseChange Parse(string data)
    {
        using var json = JsonDocument.Parse(data);
        var root = json.RootElement;
        string? Text(string name) => root.TryGetProperty(name, out var value) ? value.GetString() : null;
        return new DatabaseChange(
            Enum.Parse<ChangeKind>(Text("Kind")!),
            long.Parse(Text("Etag")!, CultureInfo.InvariantCulture),
            Text("Key"), Text("EntityName"), Text("IndexName"));
    }
}
