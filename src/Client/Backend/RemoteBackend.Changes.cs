using System.Globalization;
using System.Net.Http.Headers;
using System.Runtime.CompilerServices;
using System.Text;
using RavenLite.Client.Changes;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    /// <summary>
    /// <c>GET /changes</c> as Server-Sent Events, filtered on the server. A connection that drops or is cut off for reading
    /// too slowly is opened again with <c>Last-Event-ID</c>, so nothing is missed or repeated; the feed ends when the
    /// server says it is closing.
    /// </summary>
    public async IAsyncEnumerable<DatabaseChange> Changes(long fromEtag, ChangesFilter filter,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var last = fromEtag;
        while (true)
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, ChangesUrl(filter));
            request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("text/event-stream"));
            request.Headers.Add("Last-Event-ID", last.ToString(CultureInfo.InvariantCulture));
            using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false);
            var body = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            if (!response.IsSuccessStatusCode)
                throw RemoteErrors.ToException(RemoteError.Read((int)response.StatusCode, body, "GET /changes"));
            using var stream = new StreamReader(body, Encoding.UTF8);
            var events = new ChangeEventReader(stream);
            while (await NextOrNullAsync(events, cancellationToken).ConfigureAwait(false) is { } change)
            {
                yield return change;
                if (change.Kind != ChangeKind.IndexCaughtUp)
                    last = change.Etag;
            }
            if (events.EndedBy == "closed")
                yield break;
        }
    }

    /// <summary>The next change; null when the connection ended or dropped (the caller reconnects).</summary>
    private static async Task<DatabaseChange?> NextOrNullAsync(ChangeEventReader events, CancellationToken cancellationToken)
    {
        try
        {
            return await events.NextAsync(cancellationToken).ConfigureAwait(false);
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
