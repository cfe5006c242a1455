using System.Linq.Expressions;
using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using Newtonsoft.Json.Serialization;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// Members the serializer writes through a converter were queried as if written plainly: an enum with
/// <c>[JsonConverter(typeof(StringEnumConverter))]</c> on the member matched nothing even for <c>==</c> (the query
/// looked for its number), an enum written by name through the settings compared names as text for <c>&gt;</c> and
/// sorted by nothing, and dates in a format of the settings' own were looked up as instants. Now a value is written as
/// the member's converter (or the settings) write it; a range of an enum written by name is the names of the values in
/// it and the numbers in it; an order the index does not hold (ordering, aggregates, ranges of other converted members)
/// is a <see cref="NotSupportedException"/>. Generated comparisons against LINQ to Objects, both stores.
/// </summary>
public sealed class ConvertedMemberQueryTests
{
#pragma warning disable CA1069 // an alias: a value with two names, written by its first
    public enum Level { Zed = 0, Alpha = 1, Mid = 5, Beta = 9, Alias = 9 }
#pragma warning restore CA1069

    [Flags]
    public enum Access { None = 0, Read = 1, Write = 2, Admin = 4 }

    public sealed class Row
    {
        public string? Id { get; set; }
        public int N { get; set; }
        public Level Level { get; set; }
        public Level? Maybe { get; set; }
        [JsonConverter(typeof(StringEnumConverter))]
        public Level Tagged { get; set; }
        [JsonProperty(ItemConverterType = typeof(StringEnumConverter))]
        public List<Level> Levels { get; set; } = [];
        public Access Access { get; set; }
        public DateTime At { get; set; }
    }

    private static readonly int[] s_levels = [0, 1, 5, 9, 3, -2, 12];

    public static TheoryData<bool, string> Stores() => new()
    {
        { false, "member converters" }, { true, "member converters" },
        { false, "settings write enums by name" }, { true, "settings write enums by name" },
        { false, "settings write enums camelCase, dates as minutes" }, { true, "settings write enums camelCase, dates as minutes" },
    };

    [Theory]
    [MemberData(nameof(Stores))]
    public async Task Converted_members_answer_as_LINQ_does_or_refuse(bool remote, string settings)
    {
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        var conventions = new StoreConventions
        {
            SerializerSettings = settings switch
            {
                "settings write enums by name" => new JsonSerializerSettings { Converters = { new StringEnumConverter() } },
                "settings write enums camelCase, dates as minutes" => new JsonSerializerSettings
                {
                    Converters = { new StringEnumConverter(new CamelCaseNamingStrategy()) },
                    DateFormatString = "yyyy-MM-dd HH:mm",
                },
                _ => new JsonSerializerSettings(),
            },
        };
        using var store = fixture.OpenAnotherStore(conventions);
        var random = new Random(settings.Length * 31 + (remote ? 1 : 0));
        var start = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var rows = Enumerable.Range(0, 60).Select(i => new Row
        {
            N = i,
            Level = (Level)s_levels[random.Next(s_levels.Length)],
            Maybe = random.Next(4) == 0 ? null : (Level)s_levels[random.Next(s_levels.Length)],
            Tagged = (Level)s_levels[random.Next(s_levels.Length)],
            Levels = [.. Enumerable.Range(0, random.Next(3)).Select(_ => (Level)s_levels[random.Next(s_levels.Length)])],
            Access = (Access)random.Next(8),
            At = start.AddMinutes(random.Next(5)),
        }).ToList();
        using (var session = store.OpenSession())
        {
            foreach (var row in rows)
                session.Store(row);
            session.SaveChanges();
        }

        var shapes = new List<(string Name, Expression<Func<Row, bool>> Where)>();
        foreach (var bound in s_levels.Select(v => (Level)v))
        {
            shapes.Add(($"Level == {bound}", x => x.Level == bound));
            shapes.Add(($"Level > {bound}", x => x.Level > bound));
            shapes.Add(($"Level <= {bound}", x => x.Level <= bound));
            shapes.Add(($"Maybe >= {bound}", x => x.Maybe >= bound));
            shapes.Add(($"Maybe != {bound}", x => x.Maybe != bound));
            shapes.Add(($"Tagged == {bound}", x => x.Tagged == bound));
            shapes.Add(($"Tagged < {bound}", x => x.Tagged < bound));
            shapes.Add(($"(int)Tagged > {(int)bound}", x => (int)x.Tagged > (int)bound));
            shapes.Add(($"Levels.Contains({bound})", x => x.Levels.Contains(bound)));
            shapes.Add(($"Levels.Any(l => l > {bound})", x => x.Levels.Any(l => l > bound)));
            shapes.Add(($"[{bound}, Alpha].Contains(Tagged)", x => new[] { bound, Level.Alpha }.Contains(x.Tagged)));
        }
        for (var access = 0; access < 8; access++)
        {
            var value = (Access)access;
            shapes.Add(($"Access == {value}", x => x.Access == value));
            shapes.Add(($"Access > {value}", x => x.Access > value));
        }
        for (var minute = -1; minute <= 5; minute++)
        {
            var at = start.AddMinutes(minute);
            shapes.Add(($"At == +{minute}", x => x.At == at));
            shapes.Add(($"At > +{minute}", x => x.At > at));
        }

        int right = 0, refused = 0;
        var wrong = new List<string>();
        foreach (var (name, where) in shapes)
        {
            var expected = rows.AsQueryable().Where(where).Select(r => r.Id!).ToList().Order(StringComparer.Ordinal).ToList();
            try
            {
                using var session = store.OpenSession();
                var actual = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Where(where).ToList()
                    .Select(r => r.Id!).Order(StringComparer.Ordinal).ToList();
                if (actual.SequenceEqual(expected))
                    right++;
                else
                    wrong.Add($"{name}: expected {expected.Count} [{string.Join(",", expected.Take(8))}], got {actual.Count} [{string.Join(",", actual.Take(8))}]");
            }
            catch (NotSupportedException)
            {
                refused++;
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong ({right} right, {refused} refused):\n{string.Join("\n", wrong)}");
        // Everything is answered but [Flags] ranges written by name and ranges of dates in the settings' own format.
        var refusable = (settings.Contains("by name", StringComparison.Ordinal) || settings.Contains("camelCase", StringComparison.Ordinal) ? 8 : 0)
            + (settings.Contains("minutes", StringComparison.Ordinal) ? 7 : 0);
        Assert.Equal(refusable, refused);
        Assert.Equal(shapes.Count - refusable, right);

        // Orders of what is written by name or by a converter are refused, never answered in another order.
        using (var session = store.OpenSession())
        {
            Assert.Throws<NotSupportedException>(() => session.Query<Row>().OrderBy(x => x.Tagged).ToList());
            Assert.Throws<NotSupportedException>(() => session.Query<Row>().AggregateBy(x => x.Tagged).Execute());
            if (settings.Contains("minutes", StringComparison.Ordinal))
            {
                // Dates in the settings' own format are counted by their text; they have no ranges.
                var counted = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).AggregateBy(x => x.At).Execute()[0];
                Assert.Equal(rows.GroupBy(r => r.At).Select(g => (g.Key.ToString("yyyy-MM-dd HH:mm", System.Globalization.CultureInfo.InvariantCulture), (long)g.Count())).Order(),
                    counted.Values.Select(v => (v.Value, v.Count)).Order());
                Assert.Throws<NotSupportedException>(() => session.Query<Row>().AggregateByRanges(x => x.At, start.AddMinutes(2)).Execute());
            }
            if (settings != "member converters")
            {
                Assert.Throws<NotSupportedException>(() => session.Query<Row>().OrderBy(x => x.Level).ToList());
                Assert.Throws<NotSupportedException>(() => session.Query<Row>().Max(x => x.Level));
            }
            else
            {
                var ordered = session.Query<Row>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).OrderBy(x => x.Level).ThenBy(x => x.N).ToList().Select(r => r.N);
                Assert.Equal(rows.OrderBy(x => x.Level).ThenBy(x => x.N).Select(r => r.N), ordered);
            }
        }
    }
}
