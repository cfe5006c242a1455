using System.Buffers;
using System.Net.Http.Headers;
using System.Text.Json;

namespace RavenLite.Client.Backend;

/// <summary>
/// Sessions over a RavenLite server, through its documented routes and one <see cref="HttpClient"/>: loads are
/// multi-gets (<c>POST /queries</c>: the full <c>@metadata</c>, and no key escaping in URLs), saves one
/// <c>POST /bulk_docs</c>, queries <c>GET /indexes/{name}</c>. Bodies are always sent as <c>application/json</c>.
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

    public IReadOnlyList<StoredDocument?> Get(IReadOnlyList<string> keys)
    {
        var body = WriteJson(json =>
        {
            json.WriteStartArray();
            foreach (var key in keys)
                json.WriteStringValue(key);
            json.WriteEndArray();
        });
        using var response = Send(HttpMethod.Post, "queries", body, RemoteErrors.ForDocuments);
        var results = response.RootElement.GetProperty("Results");
        var documents = new StoredDocument?[results.GetArrayLength()];
        var i = 0;
        foreach (var element in results.EnumerateArray())
            documents[i++] = element.ValueKind == JsonValueKind.Null ? null : RemoteDocuments.Read(element);
        return documents;
    }

    public IReadOnlyList<long?> Batch(IReadOnlyList<WriteCommand> commands)
    {
        var body = WriteJson(json =>
        {
            json.WriteStartArray();
            foreach (var command in commands)
            {
                json.WriteStartObject();
                json.WriteString("Method", command.IsDelete ? "DELETE" : "PUT");
                json.WriteString("Key", command.Key);
                if (!command.IsDelete)
                {
                    json.WritePropertyName("Document");
                    json.WriteRawValue(command.Data, skipInputValidation: true);
                    json.WritePropertyName("Metadata");
                    json.WriteRawValue(command.Metadata!, skipInputValidation: true);
                }
                if (command.ExpectedEtag is { } etag)
                    json.WriteNumber("Etag", etag);
                json.WriteEndObject();
            }
            json.WriteEndArray();
        });
        using var response = Send(HttpMethod.Post, "bulk_docs", body, status => RemoteErrors.ForBatch(status, commands));
        var etags = new long?[commands.Count];
        var i = 0;
        foreach (var result in response.RootElement.EnumerateArray())
        {
            var etag = result.GetProperty("Etag");
            etags[i++] = etag.ValueKind == JsonValueKind.Null ? null : long.Parse(etag.GetString()!, System.Globalization.CultureInfo.InvariantCulture);
        }
        return etags;
    }

    private static byte[] WriteJson(Action<Utf8JsonWriter> write)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var json = new Utf8JsonWriter(buffer, RemoteDocuments.WriterOptions))
            write(json);
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Sends a request and parses the JSON answer, or turns an error answer into the embedded exception type.</summary>
    private JsonDocument Send(HttpMethod method, string relativeUrl, byte[]? body, Func<RemoteError, Exception> error)
    {
        using var request = new HttpRequestMessage(method, relativeUrl);
        if (body is not null)
        {
            request.Content = new ByteArrayContent(body);
            request.Content.Headers.ContentType = s_json;
        }
        HttpResponseMessage response;
        try
        {
            response = _http.Send(request);
        }
        catch (TaskCanceledException ex)
        {
            throw new TimeoutException($"The server did not answer {method} /{relativeUrl} within {_http.Timeout.TotalSeconds:0.###} s.", ex);
        }
        using (response)
        {
            using var stream = response.Content.ReadAsStream();
            if (response.IsSuccessStatusCode)
                return JsonDocument.Parse(stream);
            throw error(RemoteError.Read((int)response.StatusCode, stream, $"{method} /{relativeUrl}"));
        }
    }

    public void Dispose() => _http.Dispose();
}
