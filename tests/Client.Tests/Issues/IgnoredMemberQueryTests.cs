#pragma warning disable CA1861 // one-off arrays in assertions
using Newtonsoft.Json;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// A <c>[JsonIgnore]</c> member is in no document, so a query on it matched nothing where LINQ to Objects, over the
/// entities in memory, finds the ones holding the value: it is refused, naming the member, on both stores. So is a
/// <c>byte[]</c> compared or searched (written as one base64 string: <c>Contains</c>, <c>Any</c> and <c>Length</c>
/// were asked of an array the document does not have, and C# compares arrays by reference); its null checks stand.
/// </summary>
public sealed class IgnoredMemberQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public int Stored { get; set; }
        [JsonIgnore]
        public int Scratch { get; set; }
        public byte[] Bytes { get; set; } = [1, 2, 3];
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_query_on_a_member_the_serializer_does_not_write_as_it_is_is_refused(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(new Row { Stored = 1, Scratch = 7 }, "rows/1");
            session.SaveChanges();
        }
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var refused = Assert.Throws<NotSupportedException>(() => query.Where(x => x.Scratch == 7).ToList());
            Assert.Contains("'Row.Scratch' is not written to documents", refused.Message, StringComparison.Ordinal);
            Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Scratch).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Bytes.Contains((byte)2)).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Bytes.Any()).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Bytes.Length == 3).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Bytes == new byte[] { 1, 2, 3 }).ToList());
            Assert.Empty(query.Where(x => x.Bytes == null).ToList());
            Assert.Equal("rows/1", Assert.Single(query.Where(x => x.Stored == 1 && x.Id == "rows/1").ToList()).Id);
        }
    }
}
