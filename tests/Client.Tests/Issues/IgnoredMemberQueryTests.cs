using Newtonsoft.Json;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// A <c>[JsonIgnore]</c> member is in no document, so a query on it matched nothing where LINQ to Objects, over the
/// entities in memory, finds the ones holding the value: it is refused, naming the member, on both stores.
/// </summary>
public sealed class IgnoredMemberQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public int Stored { get; set; }
        [JsonIgnore]
        public int Scratch { get; set; }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_query_on_a_member_the_serializer_does_not_write_is_refused(bool remote)
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
            Assert.Equal("rows/1", Assert.Single(query.Where(x => x.Stored == 1 && x.Id == "rows/1").ToList()).Id);
        }
    }
}
