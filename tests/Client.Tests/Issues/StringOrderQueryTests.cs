using System.Globalization;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// <c>OrderBy(x =&gt; x.Name)</c> was answered in code-point order ("B" before "a"), where LINQ to Objects orders strings
/// with the current culture ("a", "A", "b", "B"; "é" and "e\u0301" alike; a soft hyphen skipped). Now it is answered
/// from the invariant culture's sort keys when the current culture orders as that one does, and refused under a culture
/// that orders otherwise; <c>OrderBy(x =&gt; x.Name, StringComparer.Ordinal)</c> orders by code point. Both stores.
/// </summary>
public sealed class StringOrderQueryTests
{
    public sealed class Row
    {
        public string? Id { get; set; }
        public string? Name { get; set; }
        public int N { get; set; }
        public TimeSpan Span { get; set; }
        public Guid Tag { get; set; }
    }

    private static readonly string?[] s_names = ["b", "B", "a", "A", "\u00e9", "e\u0301", "f", "E", "", null, "a b", "ab", "a-b", "10", "9", "\u00adab", "Zoe", "zoe"];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Strings_order_as_LINQ_orders_them_with_the_culture_or_with_the_ordinal_comparer(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var random = new Random(41);
        // More than a page (1,024): ToList continues after the last sort key of each page.
        var rows = Enumerable.Range(0, 1_300).Select(i => new Row { Id = $"rows/{i:D4}", Name = s_names[random.Next(s_names.Length)], N = random.Next(3) }).ToList();
        using (var bulk = fixture.Store.BulkInsert())
        {
            foreach (var row in rows)
                bulk.Store(row, row.Id!);
        }
        var saved = CultureInfo.CurrentCulture;
        try
        {
            foreach (var culture in new[] { CultureInfo.InvariantCulture, CultureInfo.GetCultureInfo("en-US") })
            {
                CultureInfo.CurrentCulture = culture;
                using var session = fixture.Store.OpenSession();
                var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
                Assert.Equal(Ids(rows.OrderBy(x => x.Name).ThenBy(x => x.Id, StringComparer.Ordinal)), Ids(query.OrderBy(x => x.Name).ThenBy(x => x.Id, StringComparer.Ordinal).ToList()));
                Assert.Equal(Ids(rows.OrderByDescending(x => x.Name).ThenBy(x => x.N).ThenBy(x => x.Id, StringComparer.Ordinal)),
                    Ids(query.OrderByDescending(x => x.Name).ThenBy(x => x.N).ThenBy(x => x.Id, StringComparer.Ordinal).ToList()));
                Assert.Equal(Ids(rows.OrderBy(x => x.N).ThenBy(x => x.Name).ThenBy(x => x.Id, StringComparer.Ordinal).Skip(7).Take(20)),
                    Ids(query.OrderBy(x => x.N).ThenBy(x => x.Name).ThenBy(x => x.Id, StringComparer.Ordinal).Skip(7).Take(20).ToList()));
                Assert.Equal(Ids(rows.OrderBy(x => x.Name, StringComparer.Ordinal).ThenBy(x => x.Id, StringComparer.Ordinal)),
                    Ids(query.OrderBy(x => x.Name, StringComparer.Ordinal).ThenBy(x => x.Id, StringComparer.Ordinal).ToList()));
                Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Name, StringComparer.OrdinalIgnoreCase).ToList());
            }
            // Danish orders "aa" as "å", after "z": the invariant culture's keys do not hold that order.
            CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("da-DK");
            using (var session = fixture.Store.OpenSession())
            {
                var refused = Assert.Throws<NotSupportedException>(() => session.Query<Row>().OrderBy(x => x.Name).ToList());
                Assert.Contains("da-DK", refused.Message, StringComparison.Ordinal);
                Assert.Equal(rows.Count, session.Query<Row>().OrderBy(x => x.Name, StringComparer.Ordinal).ToList().Count);
            }
        }
        finally
        {
            CultureInfo.CurrentCulture = saved;
        }
    }

    /// <summary>
    /// A TimeSpan is written as text, which sorted "-00:01:00" before "-00:02:00" and "1.00:00:00" before "23:00:00":
    /// ordering by it is refused. A Guid's text orders as Guid.CompareTo does, and stays answered.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Ordering_by_a_TimeSpan_is_refused_and_by_a_Guid_answered(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var rows = new[] { -2, -1, 0, 23 * 60, 24 * 60 }.Select((minutes, i) => new Row
        {
            Id = $"rows/{i}",
            Span = TimeSpan.FromMinutes(minutes),
            Tag = new Guid((uint)(i * 0x7000_0000u), (ushort)i, 0, 0, 0, 0, 0, 0, 0, 0, (byte)(5 - i)),
        }).ToList();
        Store(fixture, rows);
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            var refused = Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Span).ToList());
            Assert.Contains("TimeSpan is written as text", refused.Message, StringComparison.Ordinal);
            Assert.Equal(Ids(rows.OrderByDescending(x => x.Tag)), Ids(query.OrderByDescending(x => x.Tag).ToList()));
        }
    }

    /// <summary>
    /// A string whose sort key outgrows what a doc value holds (U+FDFA expands to eighteen letters) is indexed with its
    /// key cut, not left out of the index, and orders among the others by its start.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_string_whose_sort_key_outgrows_a_doc_value_is_indexed_and_ordered(bool remote)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var rows = new[] { "b", "a" + new string('\ufdfa', 5_440), "c", "a" }.Select((name, i) => new Row { Id = $"rows/{i}", Name = name }).ToList();
        Store(fixture, rows);
        using (var session = fixture.Store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            Assert.Equal(Ids(rows.OrderBy(x => x.Name)), Ids(query.OrderBy(x => x.Name).ToList()));
        }
    }

    private static void Store(StoreFixture fixture, IEnumerable<Row> rows)
    {
        using var session = fixture.Store.OpenSession();
        foreach (var row in rows)
            session.Store(row);
        session.SaveChanges();
    }

    private static string Ids(IEnumerable<Row> rows) => string.Join(",", rows.Select(x => x.Id));
}
