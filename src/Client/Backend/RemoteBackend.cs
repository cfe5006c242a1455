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

    public RemoteBackend(Uri serverUrl, RemoteOptions options)
    {
        _http = new HttpClient(options.Handler ?? new SocketsHttpHandler(), disposeHandler: options.Handler is null)
        {
            BaseAddress = serverUrl,
            Timeout = options.RequestTimeout,
        };
        if (options.ApiKey is not null)
            _http.DefaultRequestHeaders.Add("X-Api-Key", options.ApiKey);
    }

    private T Run<T>(RemoteRequest request, Func<JsonElement, T> parse)
    {
        using var message = request.ToMessage();
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
            using var stream = response.Content.ReadAsStream();
            if (!response.IsSuccessStatusCode)
                throw request.Error(RemoteError.Read((int)response.StatusCode, stream, request.Describe()));
            using var json = JsonDocument.Parse(stream);
            return parse(json.RootElement);
        }
    }

    private async Task<T> RunAsync<T>(RemoteRequest request, Func<JsonElement, T> parse, CancellationToken cancellationToken)
    {
        using var message = request.ToMessage();
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
            var stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
            await using (stream.ConfigureAwait(false))
            {
                if (!response.IsSuccessStatusCode)
                    throw request.Error(RemoteError.Read((int)response.StatusCode, stream, request.Describe()));
                using var json = await JsonDocument.ParseAsync(stream, cancellationToken: cancellationToken).ConfigureAwait(false);
                return parse(json.RootElement);
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

    public void Dispose() => _http.Dispose();

    /// <summary>One request to the server, and how its error answers become exceptions.</summary>
    private sealed record RemoteRequest(HttpMethod Method, string RelativeUrl, byte[]? Body, Func<RemoteError, Exception> Error)
    {
        public HttpRequestMessage ToMessage()
        {
            var message = new HttpRequestMessage(Method, RelativeUrl);
            if (Body is not null)
            {
                message.Content = new ByteArrayContent(Body);
                message.Content.Headers.ContentType = s_json;
            }
            return message;
        }

        public string Describe() => $"{Method} /{RelativeUrl}";
    }
}
