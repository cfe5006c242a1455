using System.ComponentModel;
using System.Linq.Expressions;
using Newtonsoft.Json;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// With <c>DefaultValueHandling.Ignore</c> (in the settings, or on a member with its <c>[DefaultValue]</c>) the serializer
/// leaves a member out of a document where it holds its default, and LINQ reads such a document back with that value;
/// the queries looked for a term the document does not have: <c>x.Quantity == 0</c> found nothing, <c>x.Quantity != 0</c>
/// found everything, <c>Min</c> and <c>Average</c> skipped the defaults. Now a document without the member matches exactly
/// when the default does, and orders and aggregates of such a member are refused. Generated comparisons against LINQ to
/// Objects, both stores.
/// </summary>
public sealed class OmittedDefaultQueryTests
{
    public enum Color { Red, Green, Blue }

    public sealed class Row
    {
        public string? Id { get; set; }
        public int N { get; set; }
        public int Quantity { get; set; }
        public long Big { get; set; }
        public bool Flag { get; set; }
        public Color Color { get; set; }
        public double Ratio { get; set; }
        public decimal Price { get; set; }
        public DateTime At { get; set; }
        public int? Maybe { get; set; }
        [DefaultValue(5)]
        [JsonProperty(DefaultValueHandling = DefaultValueHandling.IgnoreAndPopulate)]
        public int Five { get; set; } = 5;
        public List<int> Tags { get; set; } = [];
    }

    [Theory]
    [InlineData(false, true)]
    [InlineData(true, true)]
    [InlineData(false, false)]
    [InlineData(true, false)]
    public async Task A_document_leaving_out_a_default_matches_as_its_default_does(bool remote, bool ignoreInSettings)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = fixture.OpenAnotherStore(new StoreConventions
        {
            SerializerSettings = new JsonSerializerSettings { DefaultValueHandling = ignoreInSettings ? DefaultValueHandling.Ignore : DefaultValueHandling.Include },
        });
        var random = new Random(ignoreInSettings ? 7 : 8);
        var start = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var rows = Enumerable.Range(0, 50).Select(i => new Row
        {
            N = i + 1,
            Quantity = random.Next(-1, 3),
            Big = random.Next(3) == 0 ? 0 : long.MaxValue - random.Next(2),
            Flag = random.Next(2) == 0,
            Color = (Color)random.Next(3),
            Ratio = random.Next(3) == 0 ? 0.0 : random.Next(-2, 3) / 2.0,
            Price = random.Next(3) == 0 ? 0m : random.Next(-2, 3) * 1.25m,
            At = random.Next(3) == 0 ? default : start.AddDays(random.Next(3)),
            Maybe = random.Next(3) == 0 ? null : random.Next(0, 2),
            Five = random.Next(3, 7),
            Tags = [.. Enumerable.Range(0, random.Next(3)).Select(_ => random.Next(0, 2))],
        }).ToList();
        using (var session = store.OpenSession())
        {
            foreach (var row in rows)
                session.Store(row);
            session.SaveChanges();
        }

        var shapes = new List<(string, Expression<Func<Row, bool>>)>();
        foreach (var v in new[] { -1, 0, 1, 2 })
        {
            shapes.Add(($"Quantity == {v}", x => x.Quantity == v));
            shapes.Add(($"Quantity != {v}", x => x.Quantity != v));
            shapes.Add(($"Quantity < {v}", x => x.Quantity < v));
            shapes.Add(($"Quantity >= {v}", x => x.Quantity >= v));
            shapes.Add(($"Maybe == {v}", x => x.Maybe == v));
            shapes.Add(($"Maybe > {v}", x => x.Maybe > v));
            shapes.Add(($"Tags.Contains({v})", x => x.Tags.Contains(v)));
            shapes.Add(($"[{v}, 2].Contains(Quantity)", x => new[] { v, 2 }.Contains(x.Quantity)));
            shapes.Add(($"Ratio <= {v / 2.0}", x => x.Ratio <= v / 2.0));
            shapes.Add(($"Price > {v * 1.25m}", x => x.Price > v * 1.25m));
            shapes.Add(($"At > +{v}d", x => x.At > start.AddDays(v)));
        }
        foreach (var five in new[] { 3, 5, 6 })
        {
            shapes.Add(($"Five == {five}", x => x.Five == five));
            shapes.Add(($"Five != {five}", x => x.Five != five));
            shapes.Add(($"Five <= {five}", x => x.Five <= five));
        }
        shapes.Add(("Flag", x => x.Flag));
        shapes.Add(("!Flag", x => !x.Flag));
        shapes.Add(("Flag == false", x => x.Flag == false));
        shapes.Add(("Color == Red", x => x.Color == Color.Red));
        shapes.Add(("Color != Red", x => x.Color != Color.Red));
        shapes.Add(("Color > Red", x => x.Color > Color.Red));
        shapes.Add(("Big == 0", x => x.Big == 0));
        shapes.Add(("Big == max", x => x.Big == long.MaxValue));
        shapes.Add(("At == default", x => x.At == default));
        shapes.Add(("Quantity == 0 && !Flag", x => x.Quantity == 0 && !x.Flag));
        shapes.Add(("Quantity == 0 || Color == Red", x => x.Quantity == 0 || x.Color == Color.Red));

        var wrong = new List<string>();
        foreach (var (name, where) in shapes)
        {
            using var session = store.OpenSession();
            var actual = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Where(where).ToList().Select(r => r.N).Order().ToList();
            var expected = rows.AsQueryable().Where(where).Select(r => r.N).Order().ToList();
            if (!actual.SequenceEqual(expected))
                wrong.Add($"{name}: expected {expected.Count}, got {actual.Count}");
            Assert.Equal(expected.Count, session.Query<Row>().Count(where));
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} of {shapes.Count} wrong:\n{string.Join("\n", wrong)}");

        using (var session = store.OpenSession())
        {
            var query = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1));
            // Projections of such members are made from the entities (the stored JSON lacks the default).
            Assert.Equal(rows.Select(x => (x.N, x.Quantity, x.Flag, x.Five)).Order(),
                query.Select(x => new { x.N, x.Quantity, x.Flag, x.Five }).ToList().Select(x => (x.N, x.Quantity, x.Flag, x.Five)).Order());
            Assert.Equal(rows.Select(x => x.Quantity).Distinct().Order(), query.Select(x => new { x.Quantity }).Distinct().ToList().Select(x => x.Quantity).Order());
            // Grouping such a member (or adding it up per group) is done over the matches in memory, as LINQ does.
            var groups = query.GroupBy(x => x.Quantity).Select(g => new { g.Key, Count = g.Count(), Fives = g.Sum(x => x.Five) }).ToList();
            Assert.Equal(rows.GroupBy(x => x.Quantity).Select(g => (g.Key, g.Count(), g.Sum(x => x.Five))).Order(),
                groups.Select(g => (g.Key, g.Count, g.Fives)).Order());
            // The member-level IgnoreAndPopulate leaves out Five=5 whatever the settings.
            Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Five).ToList());
            Assert.Throws<NotSupportedException>(() => query.Max(x => x.Five));
            Assert.Throws<NotSupportedException>(() => query.AggregateBy(x => x.Five).Execute());
            if (ignoreInSettings)
            {
                Assert.Throws<NotSupportedException>(() => query.OrderBy(x => x.Quantity).ToList());
                Assert.Throws<NotSupportedException>(() => query.Min(x => x.Quantity));
                Assert.Throws<NotSupportedException>(() => query.Average(x => x.Ratio));
            }
            else
            {
                Assert.Equal(rows.Min(x => x.Quantity), query.Min(x => x.Quantity));
                Assert.Equal(rows.OrderBy(x => x.Quantity).ThenBy(x => x.N).Select(x => x.N), query.OrderBy(x => x.Quantity).ThenBy(x => x.N).ToList().Select(x => x.N));
            }
        }
    }
}
