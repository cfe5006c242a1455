using System.Text;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.StoreFactory;

namespace RavenLite.Storage.Tests.Documents;

public sealed class JsonTextTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Non_ascii_text_is_written_as_is_and_quotes_are_escaped_the_json_way()
    {
        using var store = Open(StorageEngineKind.Lmdb, _dir.Path);
        store.Put("k", Json("""{"name":"Zoë \"quoted\" 日本"}"""));

        var json = Encoding.UTF8.GetString(store.Get("k")!.DataJson.Span);
        Assert.Equal("""{"name":"Zoë \"quoted\" 日本"}""", json);
    }
}
