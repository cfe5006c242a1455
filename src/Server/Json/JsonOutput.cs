using System.Text.Encodings.Web;
using System.Text.Json;

namespace RavenLite.Server.Json;

/// <summary>Shared JSON settings for everything the server writes.</summary>
internal static class JsonOutput
{
    /// <summary>The content type of every JSON response.</summary>
    public const string ContentType = "application/json; charset=utf-8";

    /// <summary>
    /// Writer options: non-ASCII text stays as UTF-8 (the responses are JSON, never embedded in HTML);
    /// depth above the 128 levels a stored document may have.
    /// </summary>
    public static JsonWriterOptions WriterOptions { get; } = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        MaxDepth = 256,
    };

    /// <summary>Reader options for request bodies: a stored document may nest 128 levels, inside a command and a list.</summary>
    public static JsonDocumentOptions ReaderOptions { get; } = new() { MaxDepth = 256 };

    /// <summary>Reader options for scanning stored metadata.</summary>
    public static JsonReaderOptions MetadataReaderOptions { get; } = new() { MaxDepth = 256 };

    /// <summary><paramref name="text"/> as a JSON string literal, quotes included, escaped as <see cref="WriterOptions"/> does.</summary>
    public static byte[] Quote(string text)
    {
        var encoded = JsonEncodedText.Encode(text, WriterOptions.Encoder).EncodedUtf8Bytes;
        var quoted = new byte[encoded.Length + 2];
        quoted[0] = (byte)'"';
        encoded.CopyTo(quoted.AsSpan(1));
        quoted[^1] = (byte)'"';
        return quoted;
    }
}
