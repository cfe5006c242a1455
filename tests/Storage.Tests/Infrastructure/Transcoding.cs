using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>What reading one BSON document as JSON gave: the bytes and token count, or the exception.</summary>
internal sealed record Transcoding(byte[]? Json, int Tokens, Exception? Error)
{
    /// <summary>The read path as it is now (the transcoder's walk, handing over to BsonDataReader as needed).</summary>
    public static Transcoding New(byte[] bson) => Run(bson, BsonCodec.ToJson);

    /// <summary>The transcoder's hand-off to BsonDataReader alone, from the first byte: it too must match on any input.</summary>
    public static Transcoding HandOffOnly(byte[] bson) => Run(bson, static (span, output) =>
    {
        using var writer = new Utf8JsonWriter(output, new JsonWriterOptions
        {
            SkipValidation = true,
            Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        });
        return BsonJsonTranscoder.WriteThroughNewtonsoft(span, writer, written: 0);
    });

    /// <summary>The read path as it was (Newtonsoft's BsonDataReader).</summary>
    public static Transcoding Old(byte[] bson) => Run(bson, NewtonsoftBsonJson.ToJson);

    /// <summary>Asserts the new read path (and its hand-off alone) treat <paramref name="bson"/> as the old one did.</summary>
    public static void AssertSameAsOld(byte[] bson, string context = "")
    {
        var expected = Old(bson);
        expected.AssertSame(New(bson), "new read path", bson, context);
        if (bson.Length > 0) // refusing no bytes at all is BsonCodec's, before the hand-off
            expected.AssertSame(HandOffOnly(bson), "hand-off", bson, context);
    }

    public string Text => Json is null ? $"{Error!.GetType().Name}: {Error.Message}" : Encoding.UTF8.GetString(Json);

    private void AssertSame(Transcoding actual, string which, byte[] bson, string context)
    {
        var where = $"{which} differs from Newtonsoft {context} for BSON {Convert.ToHexString(bson)}\n"
            + $"expected: {Text} ({Tokens} tokens)\nactual:   {actual.Text} ({actual.Tokens} tokens)";
        if (Error is null)
        {
            Assert.True(actual.Error is null && Json!.AsSpan().SequenceEqual(actual.Json) && Tokens == actual.Tokens, where);
            return;
        }
        Assert.True(actual.Error?.GetType() == Error.GetType(), where);
        // Newtonsoft's own reader exceptions end with the JSON path, which the new code does not track; and the
        // old path's failure on no bytes at all named a parameter of UnmanagedMemoryStream's.
        var sameMessage = Error switch
        {
            Newtonsoft.Json.JsonReaderException => Error.Message.StartsWith(actual.Error!.Message.TrimEnd('.'), StringComparison.Ordinal),
            ArgumentNullException => true,
            _ => Error.Message == actual.Error!.Message,
        };
        Assert.True(sameMessage, where);
    }

    private static Transcoding Run(byte[] bson, Func<ReadOnlySpan<byte>, IBufferWriter<byte>, int> toJson)
    {
        var output = new ArrayBufferWriter<byte>();
        try
        {
            var tokens = toJson(bson, output);
            return new Transcoding(output.WrittenSpan.ToArray(), tokens, null);
        }
#pragma warning disable CA1031 // any exception is an outcome to compare
        catch (Exception ex)
#pragma warning restore CA1031
        {
            return new Transcoding(null, 0, ex);
        }
    }
}
