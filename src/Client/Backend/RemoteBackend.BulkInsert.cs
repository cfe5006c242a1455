using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Runtime.ExceptionServices;
using System.Text.Json;

namespace RavenLite.Client.Backend;

internal sealed partial class RemoteBackend
{
    private static readonly MediaTypeHeaderValue s_jsonLines = new("application/x-ndjson");

    /// <summary>
    /// One <c>POST /bulk_insert</c> whose body is written as the puts come (chunked, never buffered whole); the server
    /// writes a transaction per <paramref name="batchSize"/> lines. The server answers the count only at the end, so
    /// <paramref name="written"/> hears once. A failing enumeration aborts the request: the server keeps whole batches only.
    /// </summary>
    public async Task<long> BulkInsertAsync(IAsyncEnumerable<WriteCommand> puts, int batchSize, Action<long>? written, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        var request = new RemoteRequest(HttpMethod.Post, string.Create(CultureInfo.InvariantCulture, $"bulk_insert?batchSize={batchSize}"),
            Body: null, error => RemoteErrors.ToException(error));
        var content = new JsonLinesContent(puts, batchSize, cancellationToken);
        using var message = new HttpRequestMessage(HttpMethod.Post, request.RelativeUrl) { Content = content };
        HttpResponseMessage response;
        try
        {
            response = await _http.SendAsync(message, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (content.Failure is { } failure)
        {
            // The request failed because the puts did (a bad entity, cancellation): that is the error to report.
            ExceptionDispatchInfo.Throw(failure);
            throw new InvalidOperationException("Unreachable.", ex);
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
                if (response.StatusCode != HttpStatusCode.OK)
                    throw request.Error(RemoteError.Read((int)response.StatusCode, stream, request.Describe()));
                using var json = await JsonDocument.ParseAsync(stream, cancellationToken: cancellationToken).ConfigureAwait(false);
                var total = json.RootElement.GetProperty("Written").GetInt64();
                written?.Invoke(total);
                return total;
            }
        }
    }

    /// <summary>The puts as JSON lines (<c>{"key","etag","metadata","data"}</c>), written to the request as they come.</summary>
    private sealed class JsonLinesContent : HttpContent
    {
        private static readonly byte[] s_key = "{\"key\":"u8.ToArray();
        private static readonly byte[] s_metadata = ",\"metadata\":"u8.ToArray();
        private static readonly byte[] s_data = ",\"data\":"u8.ToArray();
        private static readonly byte[] s_end = "}\n"u8.ToArray();

        private readonly IAsyncEnumerable<WriteCommand> _puts;
        private readonly int _batchSize;
        private readonly CancellationToken _cancellationToken;

        public JsonLinesContent(IAsyncEnumerable<WriteCommand> puts, int batchSize, CancellationToken cancellationToken)
        {
            _puts = puts;
            _batchSize = batchSize;
            _cancellationToken = cancellationToken;
            Headers.ContentType = s_jsonLines;
        }

        /// <summary>Why the puts stopped, when they did.</summary>
        public Exception? Failure { get; private set; }

        protected override async Task SerializeToStreamAsync(Stream body, TransportContext? context)
        {
            var cancellationToken = _cancellationToken;
            // Each write to the request body is a chunk of its own: lines are gathered into 64 KB chunks first, and
            // each whole batch is flushed so that the server can write it without waiting for the next.
            var stream = new BufferedStream(body, 1 << 16);
            var lines = 0;
            try
            {
                await foreach (var put in _puts.WithCancellation(cancellationToken).ConfigureAwait(false))
                {
                    await stream.WriteAsync(s_key, cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(JsonSerializer.SerializeToUtf8Bytes(put.Key), cancellationToken).ConfigureAwait(false);
                    if (put.ExpectedEtag is { } etag)
                        await stream.WriteAsync(System.Text.Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $",\"etag\":{etag}")),
                            cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(s_metadata, cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(put.Metadata, cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(s_data, cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(put.Data, cancellationToken).ConfigureAwait(false);
                    await stream.WriteAsync(s_end, cancellationToken).ConfigureAwait(false);
                    if (++lines % _batchSize == 0)
                        await stream.FlushAsync(cancellationToken).ConfigureAwait(false);
                }
                await stream.FlushAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                Failure = ex;
                throw;
            }
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
