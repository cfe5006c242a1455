#pragma warning disable CA1865, CA1866 // the string overloads are the ones under test
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// <c>StartsWith(string)</c> and <c>EndsWith(string)</c> without a <see cref="StringComparison"/> run with the current
/// culture in .NET, and were answered ordinally whatever the argument: <c>x.Name.EndsWith("\u0301")</c> left out "é",
/// which the culture decomposes, and <c>x.Name.StartsWith("é")</c> left out "e\u0301". With an argument outside
/// printable ASCII (where the culture agrees with the ordinal comparison) they are refused, pointing at
/// <c>StringComparison.Ordinal</c>; ASCII arguments and the ordinal overloads answer as before, on both stores.
/// </summary>
public sealed class CultureStringMethodQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_culture_StartsWith_or_EndsWith_with_an_argument_outside_printable_ASCII_is_refused(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(new Row { Name = "\u00e9" }, "rows/1");
            session.Store(new Row { Name = "e\u0301" }, "rows/2");
            session.Store(new Row { Name = "Bob" }, "rows/3");
            session.SaveChanges();
        }
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var refused = Assert.Throws<NotSupportedException>(() => query.Where(x => x.Name!.StartsWith("\u00e9")).ToList());
            Assert.Contains("pass StringComparison.Ordinal", refused.Message, StringComparison.Ordinal);
            Assert.Throws<NotSupportedException>(() => query.Where(x => x.Name!.EndsWith("\u0301")).ToList());
            Assert.Equal("rows/1", Assert.Single(query.Where(x => x.Name!.StartsWith("\u00e9", StringComparison.Ordinal)).ToList()).Id);
            Assert.Equal("rows/2", Assert.Single(query.Where(x => x.Name!.EndsWith("\u0301", StringComparison.Ordinal)).ToList()).Id);
            Assert.Equal("rows/3", Assert.Single(query.Where(x => x.Name!.StartsWith("B")).ToList()).Id);
            Assert.Equal("rows/3", Assert.Single(query.Where(x => x.Name!.EndsWith("ob")).ToList()).Id);
        }
    }
}
