using System.Net;
using System.Net.Http.Headers;
using RavenLite.Client.Caching;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    private readonly KeptResponses? _responses;

    /// <summary>A view over the same connection that neither sends <c>If-None-Match</c> nor keeps answers.</summary>
    private RemoteBackend(HttpClient http, Uri serverUrl)
    {
        _http = http;
        ServerUrl = serverUrl;
    }

    /// <summary>The same server and connection, every read a full read; disposing it leaves the connection open.</summary>
    public RemoteBackend WithoutResponseCache() => _responses is null ? this : new RemoteBackend(_http, ServerUrl);

    /// <summary>The kept answer to the same request, whose ETag goes out as <c>If-None-Match</c>; null when there is none.</summary>
    private KeptResponse? AskToRevalidate(RemoteRequest request, HttpRequestMessage message)
    {
        if (_responses is null || request.CacheKey is not { } key || !_responses.Entries.TryGet(key, out var kept))
            return null;
        message.Headers.IfNoneMatch.Add(kept.ETag);
        return kept;
    }

    /// <summary>The kept answer when the server says it still holds (304); null otherwise.</summary>
    private static T? NotModified<T>(HttpResponseMessage response, KeptResponse? kept) where T : class =>
        kept is not null && response.StatusCode == HttpStatusCode.NotModified ? (T)kept.Value : null;

    /// <summary>Keeps a read's answer under its request's key when the server tagged it.</summary>
    private T Keep<T>(RemoteRequest request, HttpResponseMessage response, T value) where T : class
    {
        if (_responses is not null && request.CacheKey is { } key)
        {
            if (response.Headers.ETag is { } etag)
                _responses.Entries.Set(key, new KeptResponse(etag, value), KeptResponses.SizeOf(value));
            else
                _responses.Entries.Remove(key);
        }
        return value;
    }

    private sealed record KeptResponse(EntityTagHeaderValue ETag, object Value);

    /// <summary>Answers by request, bounded by the bytes of the documents they hold.</summary>
    private sealed class KeptResponses(long maxBytes)
    {
        public BoundedCache<string, KeptResponse> Entries { get; } = new(int.MaxValue, maxBytes, StringComparer.Ordinal);

        public static long SizeOf(object value) => value switch
        {
            QueryPage page => Sum(page.Results) + Sum(page.Includes) + page.Projections.Sum(projection => 16L + projection.Length),
            IReadOnlyList<StoredDocument?> documents => Sum(documents),
            _ => 64,
        };

        private static long Sum(IReadOnlyList<StoredDocument?> documents)
        {
            long bytes = 128;
            foreach (var document in documents)
                bytes += 64 + (document is null ? 0 : 2L * document.Key.Length + document.DataJson.Length + document.MetadataJson.Length);
            return bytes;
        }
    }
}
