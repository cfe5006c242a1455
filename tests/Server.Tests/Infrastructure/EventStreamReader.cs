using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>One Server-Sent Event as a client parses it; <see cref="Data"/> is the JSON of its data line.</summary>
public sealed record StreamEvent(string? Id, string Name, string Data)
{
    public JsonElement Json => JsonDocument.Parse(Data).RootElement;
}

/// <summary>A <c>GET /changes</c> connection read line by line, as an EventSource would (comments are counted, not returned).</summary>
public sealed class EventStreamReader : IAsyncDisposable
{
    private readonly HttpClient _client;
    private readonly HttpResponseMessage _response;
    private readonly StreamReader _reader;

    private EventStreamReader(HttpClient client, HttpResponseMessage response, StreamReader reader)
    {
        _client = client;
        _response = response;
        _reader = reader;
    }

    public HttpResponseMessage Response => _response;

    public int Heartbeats { get; private set; }

    /// <summary>
    /// Opens the stream. <paramref name="receiveBuffer"/> shrinks the client socket's receive buffer, so a client that stops
    /// reading fills the server's buffers quickly.
    /// </summary>
    public static async Task<EventStreamReader> OpenAsync(Uri server, string pathAndQuery, string? lastEventId = null, int? receiveBuffer = null)
    {
        var handler = new SocketsHttpHandler();
        if (receiveBuffer is { } size)
        {
            handler.ConnectCallback = async (context, token) =>
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = size, NoDelay = true };
                await socket.ConnectAsync(context.DnsEndPoint, token);
                return new NetworkStream(socket, ownsSocket: true);
            };
        }
        var client = new HttpClient(handler) { BaseAddress = server, Timeout = Timeout.InfiniteTimeSpan };
        var request = new HttpRequestMessage(HttpMethod.Get, pathAndQuery);
        if (lastEventId is not null)
            request.Headers.Add("Last-Event-ID", lastEventId);
        var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        var stream = await response.Content.ReadAsStreamAsync();
        return new EventStreamReader(client, response, new StreamReader(stream, Encoding.UTF8));
    }

    /// <summary>The next event; null when the server ended the stream.</summary>
    public async Task<StreamEvent?> NextAsync(CancellationToken cancellationToken)
    {
        string? id = null, name = null, data = null;
        while (await _reader.ReadLineAsync(cancellationToken) is { } line)
        {
            if (line.Length == 0)
            {
                if (data is not null)
                    return new StreamEvent(id, name ?? "message", data);
                id = name = null;
                continue;
            }
            if (line.StartsWith(':'))
                Heartbeats++;
            else if (line.StartsWith("id: ", StringComparison.Ordinal))
                id = line[4..];
            else if (line.StartsWith("event: ", StringComparison.Ordinal))
                name = line[7..];
            else if (line.StartsWith("data: ", StringComparison.Ordinal))
                data = line[6..];
        }
        return null;
    }

    public async ValueTask DisposeAsync()
    {
        _reader.Dispose();
        _response.Dispose();
        _client.Dispose();
        await Task.CompletedTask;
    }
}
