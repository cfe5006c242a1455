using System.Globalization;
using System.Net.Http.Headers;
using System.Runtime.CompilerServices;
using RavenLite.Client.Changes;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    /// <summary>
    /// <c>GET /changes</c> as Server-Sent Events, filtered on the server. A connection that drops or is cut off for reading
    /// too slowly is opened again with <c>Last-Event-ID</c>, so nothing is missed or repeated; the feed ends when the
    /// server says it is closing. Before opening it again the client waits as long as the server's <c>retry:</c> asked.
    /// </summary>
    public async IAsyncEnumerable<DatabaseChange> Changes(long fromEtag, ChangesFilter filter,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var last = fromEtag.ToString(CultureInfo.InvariantCulture);
        var retry = TimeSpan.Zero;
        while (true)
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, ChangesUrl(filter));
            request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("text/event-stream"));
            request.Headers.Add("Last-Event-ID", last);
            using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
            var body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            if (!response.IsSuccessStatusCode)
                throw RemoteErrors.ToException(RemoteError.Read((int)response.StatusCode, body, "GET /changes"));
            await using var events = new ChangeEventReader(body, cancellationToken);
            while (await NextOrNullAsync(events, cancellationToken).ConfigureAwait(false) is { } change)
            {
                yield return change;
                // The event's id: is what the server wants back; index events carry none.
                last = events.LastEventId ?? last;
            }
            if (events.EndedBy == "closed")
                yield break;
            retry = events.ReconnectionInterval ?? retry;
            if (retry > TimeSpan.Zero)
                await Task.Delay(retry, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>The next change; null when the connection ended or dropped (the caller reconnects).</summary>
    private static async Task<DatabaseChange?> NextOrNullAsync(ChangeEventReader events, CancellationToken cancellationToken)
    {
        try
        {
            return await events.NextAsync().ConfigureAwait(false);
        }
        catch (IOException) when (!cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }

    private static string ChangesUrl(ChangesFilter filter)
    {
        var query = new List<string>();
        query.AddRange(filter.Keys.Select(key => "key=" + Uri.EscapeDataString(key)));
        query.AddRange(filter.Prefixes.Select(prefix => "prefix=" + Uri.EscapeDataString(prefix)));
        query.AddRange(filter.Collections.Select(collection => "collection=" + Uri.EscapeDataString(collection)));
        if (!filter.IncludeIndexes)
            query.Add("indexes=false");
        return query.Count == 0 ? "changes" : "changes?" + string.Join('&', query);
    }
}
