using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// Where a query needs a value, a member of the entity given there (<c>x.Tags.Contains(x.Name)</c>,
/// <c>x.Name.StartsWith(x.Prefix)</c>) failed with an <see cref="InvalidOperationException"/> from compiling it
/// ("variable 'x' ... referenced from scope '', but it is not defined"), which reads like a bug in the client. It is a
/// <see cref="NotSupportedException"/> naming the member, as comparing two members already was; values computed by a
/// lambda of their own (<c>ids.Where(i =&gt; i &gt; 0)</c>) still count as values.
/// </summary>
public sealed class MemberAsValueQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
        public string? Prefix { get; set; }
        public int N { get; set; }
        public List<string> Tags { get; set; } = [];
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_member_where_a_value_is_needed_is_a_NotSupportedException(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(new Row { Name = "a", Prefix = "a", N = 2, Tags = ["a"] }, "rows/1");
            session.SaveChanges();
        }
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var refused = Assert.Throws<NotSupportedException>(() => query.Where(x => x.Tags.Contains(x.Name!)).ToList());
            Assert.Contains("'x.Name'", refused.Message, StringComparison.Ordinal);
            Assert.Contains("reads the entity", refused.Message, StringComparison.Ordinal);
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Name!.StartsWith(x.Prefix!, StringComparison.Ordinal)).ToList());
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Name!.Contains(x.Prefix!, StringComparison.Ordinal)).ToList());
            int[] numbers = [-1, 2, 3];
            Assert.Equal("rows/1", Assert.Single(query.Where(x => numbers.Where(i => i > 0).ToList().Contains(x.N)).ToList()).Id);
        }
    }
}
