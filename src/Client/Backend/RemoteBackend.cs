using System.Buffers;
using System.Net.Http.Headers;
using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// Sessions over a RavenLite server, through its documented routes and one <see cref="HttpClient"/>: loads are
/// multi-gets (<c>POST /queries</c>: the full <c>@metadata</c>, and no key escaping in URLs), saves one
/// <c>POST /bulk_docs</c>, queries <c>GET /indexes/{name}</c>. Bodies are always sent as <c>application/json</c>.
/// Each operation is a request (method, URL, body, error mapping) and a parser of the answer, run synchronously or not.
/// </summary>
internal sealed partial class RemoteBackend : IStoreBackend
{
    private static readonly MediaTypeHeaderValue s_json = new("application/json");
    private readonly HttpClient _http;
    private readonly bool _ownsHttp;

    public RemoteBackend(Uri serverUrl, RemoteOptions options)
    {
        ServerUrl = serverUrl;
        _ownsHttp = true;
        if (options.MaxResponseBytes > 0)
            _responses = new KeptResponses(options.MaxResponseBytes);
        _http = new HttpClient(options.Handler ?? new SocketsHttpHandler(), disposeHandler: options.Handler is null)
        {
            BaseAddress = serverUrl,
            Timeout = options.RequestTimeout,
        };
        if (options.ApiKey is not null)
            _http.DefaultRequestHeaders.Add("X-Api-Key", options.ApiKey);
    }

    /// <summary>The server's base address.</summary>
    public Uri ServerUrl { get; }

    /// <summary>The server's base address (the store's metrics tag).</summary>
    public override string ToString() => ServerUrl.AbsoluteUri;

    private T Run<T>(RemoteRequest request, Func<JsonElement, T> parse) where T : class
    {
        using var message = request.ToMessage();
        var kept = AskToRevalidate(request, message);
        HttpResponseMessage response;
        try
        {
            response = _http.Send(message);
        }
        catch (TaskCanceledException ex)
        {
            throw TimedOut(request, ex);
        }
        using (response)
        {
            if (NotModified<T>(response, kept) is { } current)
                return current;
            using var stream = response.Content.ReadAsStream();
            if (!response.IsSuccessStatusCode)
                throw request.Error(RemoteError.Read((int)response.StatusCode, stream, request.Describe()));
            using var json = JsonDocument.Parse(stream);
            return Keep(request, response, parse(json.RootElement));
        }
    }

    private async Task<T> RunAsync<T>(RemoteRequest request, Func<JsonElement, T> parse, CancellationToken cancellationToken) where T : class
    {
        using var message = request.ToMessage();
        var kept = AskToRevalidate(request, message);
        HttpResponseMessage response;
        try
        {
            response = await _http.SendAsync(message, cancellationToken).ConfigureAwait(false);
        }
        catch (TaskCanceledException ex) when (!cancellationToken.IsCancellationRequested)
        {
            throw TimedOut(request, ex);
        }
        using (response)
        {
            if (NotModified<T>(response, kept) is { } current)
                return current;
            var stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            await using (stream.ConfigureAwait(false))
            {
                if (!response.IsSuccessStatusCode)
                    throw request.Error(RemoteError.Read((int)response.StatusCode, stream, request.Describe()));
                using var json = await JsonDocument.ParseAsync(stream, cancellationToken: cancellationToken).ConfigureAwait(false);
                return Keep(request, response, parse(json.RootElement));
            }
        }
    }

    private TimeoutException TimedOut(RemoteRequest request, Exception inner) =>
        new($"The server did not answer {request.Describe()} within {_http.Timeout.TotalSeconds:0.###} s.", inner);

    private static byte[] WriteJson(Action<Utf8JsonWriter> write)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var json = new Utf8JsonWriter(buffer, RemoteDocuments.WriterOptions))
            write(json);
        return buffer.WrittenSpan.ToArray();
    }

    public void Dispose()
    {
        if (_ownsHttp)
            _http.Dispose();
    }

    /// <summary>
    /// One request to the server, and how its error answers become exceptions. A request with a <paramref name="CacheKey"/>
    /// is a read whose answer is kept and revalidated (the same key: the same answer while the server's ETag holds).
    /// </summary>
    private sealed record RemoteRequest(HttpMethod Method, string RelativeUrl, byte[]? Body, Func<RemoteError, Exception> Error, string? CacheKey = null,
        MediaTypeHeaderValue? ContentType = null)
    {
        public HttpRequestMessage ToMessage()
        {
            var message = new HttpRequestMessage(Method, RelativeUrl);
            if (Body is not null)
            {
                message.Content = new ByteArrayContent(Body);
                message.Content.Headers.ContentType = ContentType ?? s_json;
            }
            return message;
        }

        public string Describe() => $"{Method} /{RelativeUrl}";
    }
}
