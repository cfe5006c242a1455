using RavenLite.Storage.Documents;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Store;

/// <summary>Each bad input gets a clear error and writes nothing.</summary>
public sealed class BadInputTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly DocumentStore _store;

    public BadInputTests()
    {
        _store = Open(StorageEngineKind.Lmdb, _dir.Path);
        _store.Put("existing", Json("""{"keep":true}"""));
    }

    public void Dispose()
    {
        _store.Dispose();
        _dir.Dispose();
    }

    private void AssertNothingWritten()
    {
        var counts = _store.GetCounts();
        Assert.Equal(1, counts.Documents);
        Assert.Equal(1, counts.LastEtag);
        Assert.Single(_store.GetDocumentsAfterEtag(0, 10));
    }

    public static TheoryData<string, string> BadKeys => new()
    {
        { "", "empty" },
        { "   ", "whitespace" },
        { "\t\n", "whitespace" },
        { "a\u0000b", "control characters" },
        { "line\nbreak", "control characters" },
        { "del\u007f", "control characters" },
        { new string('k', DocumentKey.MaxBytes + 1), "at most 255 bytes" },
        { new string('\u00e9', 128), "at most 255 bytes" }, // 256 bytes of UTF-8
    };

    [Theory]
    [MemberData(nameof(BadKeys))]
    public void Bad_keys_are_refused_with_ArgumentException_naming_the_problem(string key, string expected)
    {
        var ex = Assert.Throws<ArgumentException>(() => _store.Put(key, Json("{}")));
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void A_key_with_a_lone_surrogate_is_refused()
    {
        // Not theory data: xUnit's serialization of theory rows would replace the lone surrogate.
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("half\ud800", Json("{}")));
        Assert.Contains("lone surrogate", ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void A_key_of_exactly_the_maximum_length_is_accepted()
    {
        var key = new string('k', DocumentKey.MaxBytes);
        _store.Put(key, Json("{}"));
        Assert.Equal(key, _store.Get(key.ToUpperInvariant())!.Key);
    }

    [Fact]
    public void A_null_key_is_refused_with_ArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => _store.Put(null!, Json("{}")));
        AssertNothingWritten();
    }

    [Theory]
    [InlineData("[1,2,3]", "must be a JSON object, not an array")]
    [InlineData("\"text\"", "must be a JSON object, not a string")]
    [InlineData("42", "must be a JSON object, not a number")]
    [InlineData("null", "must be a JSON object, not null")]
    [InlineData("", "empty")]
    [InlineData("{\"a\":", "not valid JSON")]
    [InlineData("{\"a\":1} {\"b\":2}", "after a single JSON value")]
    [InlineData("{'unterminated", "not valid JSON")]
    public void Json_that_is_not_one_object_is_refused_before_anything_is_written(string json, string expected)
    {
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("k", DocumentContent.FromJson(json)));
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void Empty_utf8_json_is_refused_as_empty()
    {
        var ex = Assert.Throws<ArgumentException>(() => DocumentContent.FromJson(ReadOnlySpan<byte>.Empty));
        Assert.Contains("empty", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Malformed_bson_is_refused()
    {
        byte[] wrongLength = [9, 0, 0, 0, 0];
        byte[] garbage = [12, 0, 0, 0, 0x02, (byte)'a', 0, 0xff, 0xff, 0xff, 0x7f, 0];
        Assert.Throws<ArgumentException>(() => DocumentContent.FromBson(wrongLength));
        Assert.Throws<ArgumentException>(() => DocumentContent.FromBson(garbage));
        AssertNothingWritten();
    }

    [Fact]
    public void A_document_over_16_MiB_is_refused_naming_the_limit()
    {
        var big = DocumentContent.FromJson($$"""{"blob":"{{new string('x', 16 * 1024 * 1024)}}"}""");
        var ex = Assert.Throws<ArgumentException>(() => _store.Put("big", big));
        Assert.Contains("16 MiB", ex.Message, StringComparison.Ordinal);
        AssertNothingWritten();
    }

    [Fact]
    public void A_batch_with_one_bad_command_names_it_and_writes_nothing()
    {
        var ex = Assert.Throws<ArgumentException>(() => _store.Batch(
        [
            BatchCommand.Put("fine", Json("{}")),
            BatchCommand.Put("bad\u0001key", Json("{}")),
        ]));
        Assert.StartsWith("Batch command 1:", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("(Parameter", ex.Message, StringComparison.Ordinal);
        Assert.Null(_store.Get("fine"));
        AssertNothingWritten();
    }

    [Fact]
    public void An_empty_batch_and_negative_paging_arguments_are_argument_errors()
    {
        Assert.Throws<ArgumentException>(() => _store.Batch([]));
        Assert.Throws<ArgumentOutOfRangeException>(() => _store.GetDocuments(-1, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => _store.GetDocuments(0, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => _store.Put("k", Json("{}"), expectedEtag: -1));
        AssertNothingWritten();
    }
}
