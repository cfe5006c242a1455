using System.Globalization;
using System.Net.ServerSentEvents;
using System.Text.Json;

namespace RavenLite.Client.Changes;

/// <summary>
/// Reads the server's <c>/changes</c> event stream with <see cref="SseParser"/> (System.Net.ServerSentEvents, in the
/// shared framework): document and index events become <see cref="DatabaseChange"/>s, <c>cut-off</c> and
/// <c>closed</c> notices end the stream with their kind. The parser joins multi-line <c>data:</c>, skips comments
/// (heartbeats) and keeps the last <c>id:</c> and <c>retry:</c>.
/// </summary>
internal sealed class ChangeEventReader : IAsyncDisposable
{
    private readonly SseParser<string> _parser;
    private readonly IAsyncEnumerator<SseItem<string>> _items;

    public ChangeEventReader(Stream stream, CancellationToken cancellationToken)
    {
        _parser = SseParser.Create(stream);
        _items = _parser.EnumerateAsync(cancellationToken).GetAsyncEnumerator(cancellationToken);
    }

    /// <summary>The next change; null at the end of the stream, with <see cref="EndedBy"/> naming the notice, if any.</summary>
    public async Task<DatabaseChange?> NextAsync()
    {
        while (await _items.MoveNextAsync().ConfigureAwait(false))
        {
            var item = _items.Current;
            switch (item.EventType)
            {
                case "put" or "delete" or "index":
                    return Parse(item.Data);
                case SseParser.EventTypeDefault when item.Data.Length == 0:
                    continue; // a field-only block (retry:) carries no event
                default:
                    EndedBy = item.EventType;
                    return null;
            }
        }
        return null;
    }

    /// <summary>The notice that ended the stream (<c>cut-off</c>, <c>closed</c>); null when the connection just ended.</summary>
    public string? EndedBy { get; private set; }

    /// <summary>The last <c>id:</c> the server sent, to send back as <c>Last-Event-ID</c>; null before any.</summary>
    public string? LastEventId => string.IsNullOrEmpty(_parser.LastEventId) ? null : _parser.LastEventId;

    /// <summary>How long the server asked a client to wait before reconnecting (<c>retry:</c>); null when it did not say.</summary>
    public TimeSpan? ReconnectionInterval => _parser.ReconnectionInterval == Timeout.InfiniteTimeSpan ? null : _parser.ReconnectionInterval;

    public ValueTask DisposeAsync() => _items.DisposeAsync();

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
