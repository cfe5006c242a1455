using System.Globalization;
using System.Text.Json;
using RavenLite.Client.Tests.Infrastructure;
using Item = RavenLite.Client.Tests.Querying.ShapeDifferentialTests.Item;
using Level = RavenLite.Client.Tests.Querying.ShapeDifferentialTests.Level;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// Collection queries as a curl user writes them (<c>GET /indexes/dynamic/{collection}?query=...</c>, Lucene syntax:
/// ranges on numbers and dates, quoted phrases, escaped special characters, negation, <c>NOT</c>,
/// <c>*:* AND -...</c>, null markers, sorts, range facets at their boundaries) against LINQ to Objects over the same
/// generated items: each is answered with the oracle's documents (and order, and counts), or refused with a 400
/// problem, never another status and never a wrong answer.
/// </summary>
public sealed class HttpQueryDifferentialTests : IAsyncLifetime, IDisposable
{
    private const int Count = 240;
    private RemoteStoreFixture _fixture = null!;
    private HttpClient _http = null!;
    private List<Item> _items = null!;
    private string _collection = "";

    public async Task InitializeAsync()
    {
        _fixture = await RemoteStoreFixture.StartAsync();
        _http = new HttpClient { BaseAddress = _fixture.Address };
        var random = new Random(4242);
        var items = Enumerable.Range(0, Count).Select(_ => ShapeDifferentialTests.NewItem(random)).ToList();
        using (var session = _fixture.Store.OpenSession())
        {
            foreach (var item in items)
                session.Store(item);
            session.SaveChanges();
        }
        _items = [.. items.Select(ShapeDifferentialTests.Clone)];
        using var wait = _fixture.Store.OpenSession();
        Assert.Equal(Count, wait.Query<Item>().Statistics(out var statistics).Where(x => x.Rank >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
        // Auto/{collection}/By...
        _collection = statistics.IndexName.Split('/')[1];
    }

    public async Task DisposeAsync() => await _fixture.DisposeAsync();

    public void Dispose() => _http.Dispose();

    private static string Text(DateTime value) => JsonConvert(value);

    private static string JsonConvert(object value) => Newtonsoft.Json.JsonConvert.SerializeObject(value).Trim('"');

    private static readonly DateTime H8 = new(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc);
    private static readonly DateTime H9 = H8.AddHours(1);

    private static int CodePoints(string s) => s.EnumerateRunes().Count();

    /// <summary>The queries: each as typed into a URL (before percent-encoding) and what it means in C#.</summary>
    private static IEnumerable<(string Query, Func<Item, bool> Oracle)> Queries()
    {
        yield return ("Name:a", x => x.Name == "a");
        yield return ("Name:\"a\"", x => x.Name == "a");
        yield return ("Name:A", x => x.Name == "A");
        yield return ("Name@ci:A", x => string.Equals(x.Name, "A", StringComparison.OrdinalIgnoreCase));
        yield return ("Name:\"a b\"", x => x.Name == "a b");
        yield return ("Name:a\\ b", x => x.Name == "a b");
        yield return ("Name:a\\:b", x => x.Name == "a:b");
        yield return ("Name:\"a:b\"", x => x.Name == "a:b");
        yield return ("Name:a\\*b", x => x.Name == "a*b");
        yield return ("Name:\"a*b\"", x => x.Name == "a*b");
        yield return ("Name:a*", x => x.Name != null && x.Name.StartsWith('a'));
        yield return ("Name:a\\**", x => x.Name != null && x.Name.StartsWith("a*", StringComparison.Ordinal));
        yield return ("Name:a?b", x => x.Name != null && x.Name.Length == 3 && x.Name[0] == 'a' && x.Name[2] == 'b');
        yield return ("Name:?", x => x.Name != null && CodePoints(x.Name) == 1);
        yield return ("Name:\"quote\\\"d\"", x => x.Name == "quote\"d");
        yield return ("Name:quote\\\"d", x => x.Name == "quote\"d");
        yield return ("Name:back\\\\slash", x => x.Name == "back\\slash");
        yield return ("Name:\"back\\\\slash\"", x => x.Name == "back\\slash");
        yield return ("Name:\\+plus", x => x.Name == "+plus");
        yield return ("Name:\"+plus\"", x => x.Name == "+plus");
        yield return ("Name:\\(p\\)", x => x.Name == "(p)");
        yield return ("Name:😀", x => x.Name == "😀");
        yield return ("Name:😀*", x => x.Name != null && x.Name.StartsWith("😀", StringComparison.Ordinal));
        yield return ("Name:é", x => x.Name == "é");
        yield return ("Name:e\u0301", x => x.Name == "e\u0301");
        yield return ("Name:\"\"", x => x.Name == "");
        yield return ("Name:*", x => x.Name != null);
        yield return ("Name:[a TO b]", x => x.Name != null && string.CompareOrdinal(x.Name, "a") >= 0 && string.CompareOrdinal(x.Name, "b") <= 0);
        yield return ("Name:{a TO b}", x => x.Name != null && string.CompareOrdinal(x.Name, "a") > 0 && string.CompareOrdinal(x.Name, "b") < 0);
        yield return ("Name:[* TO B]", x => x.Name != null && string.CompareOrdinal(x.Name, "B") <= 0);
        yield return ("-Name:a", x => x.Name != "a");
        yield return ("NOT Name:a", x => x.Name != "a");
        yield return ("*:* AND -Name:a", x => x.Name != "a");
        yield return ("*:* -Name:a", x => x.Name != "a");
        yield return ("*:* AND NOT Name:a", x => x.Name != "a");
        yield return ("-Name:a -Name:b", x => x.Name != "a" && x.Name != "b");
        yield return ("Name:a OR Name:b", x => x.Name is "a" or "b");
        yield return ("Name:(a b)", x => x.Name is "a" or "b");
        yield return ("Name:(a OR B) AND Rank:1", x => x.Name is "a" or "B" && x.Rank == 1);
        yield return ("(Name:a OR Name:b) AND -Rank:1", x => x.Name is "a" or "b" && x.Rank != 1);
        yield return ("Name@null:true", x => x.Name == null);
        yield return ("-Name@null:true", x => x.Name != null);
        yield return ("Rank:1", x => x.Rank == 1);
        yield return ("-Rank:1", x => x.Rank != 1);
        yield return ("Rank:[0 TO *]", x => x.Rank >= 0);
        yield return ("Rank:[0 TO 2]", x => x.Rank >= 0 && x.Rank <= 2);
        yield return ("Rank:{0 TO 2}", x => x.Rank > 0 && x.Rank < 2);
        yield return ("Rank:[* TO 0]", x => x.Rank <= 0);
        yield return ("Rank:{0 TO *]", x => x.Rank > 0);
        yield return ("Rank:[-2 TO -1]", x => x.Rank >= -2 && x.Rank <= -1);
        yield return ("Rank:\\-1", x => x.Rank == -1);
        yield return ("Rank:(1 OR 2)", x => x.Rank is 1 or 2);
        yield return ("Rank:(1 2)", x => x.Rank is 1 or 2);
        yield return ("Rank@dec:1", x => x.Rank == 1);
        yield return ("Rank@dec:[0 TO 2}", x => x.Rank >= 0 && x.Rank < 2);
        yield return ("Rank:1 AND Flag:true", x => x.Rank == 1 && x.Flag);
        yield return ("Rank:1 OR Flag:true", x => x.Rank == 1 || x.Flag);
        yield return ("Score:[1 TO *]", x => x.Score >= 1);
        yield return ("-Score:[1 TO *]", x => !(x.Score >= 1));
        yield return ("Score:*", x => x.Score != null);
        yield return ("Score@null:true", x => x.Score == null);
        yield return ("Score:0", x => x.Score == 0);
        yield return ("-Score:0", x => x.Score != 0);
        yield return ("Price:1.5", x => x.Price == 1.5m);
        yield return ("Price:1.50", x => x.Price == 1.5m);
        yield return ("Price@dec:1.5", x => x.Price == 1.5m);
        yield return ("Price@dec:\"1.50\"", x => x.Price == 1.5m);
        yield return ("Price:[1.5 TO 10]", x => x.Price >= 1.5m && x.Price <= 10m);
        yield return ("Price:{-3 TO 0]", x => x.Price > -3m && x.Price <= 0m);
        yield return ("Price:[* TO 0}", x => x.Price < 0m);
        yield return ("Price@dec:[2.25 TO 100}", x => x.Price >= 2.25m && x.Price < 100m);
        yield return ("Tip:[* TO *]", x => x.Tip != null);
        yield return ("Tip@dec:[0 TO *]", x => x.Tip >= 0m);
        yield return ("Big:9007199254740993", x => x.Big == 9007199254740993L);
        yield return ("Big:9007199254740992", x => x.Big == 9007199254740992L);
        yield return ("Big@dec:9007199254740993", x => x.Big == 9007199254740993L);
        yield return ("Big:[9007199254740993 TO *]", x => x.Big >= 9007199254740993L);
        yield return ("Big:{9007199254740992 TO *]", x => x.Big > 9007199254740992L);
        yield return ("Big:9223372036854775807", x => x.Big == long.MaxValue);
        yield return ("Big:[* TO 0]", x => x.Big <= 0);
        yield return ("Weight:0", x => x.Weight == 0);
        yield return ("Weight:[-1 TO 0]", x => x.Weight >= -1 && x.Weight <= 0);
        yield return ("Weight:{0 TO *]", x => x.Weight > 0);
        yield return ("Weight:0.5", x => x.Weight == 0.5);
        yield return ("Weight@num:2.75", x => x.Weight == 2.75);
        yield return ("Rating:[0 TO *]", x => x.Rating >= 0);
        yield return ("-Rating:[0 TO *]", x => !(x.Rating >= 0));
        yield return ("Flag:true", x => x.Flag);
        yield return ("-Flag:true", x => !x.Flag);
        yield return ("Flag:false", x => !x.Flag);
        yield return ("MaybeFlag:true", x => x.MaybeFlag == true);
        yield return ("-MaybeFlag:true", x => x.MaybeFlag != true);
        yield return ("MaybeFlag@null:true", x => x.MaybeFlag == null);
        yield return ("Grade:1", x => x.Grade == Level.Mid);
        yield return ("Grade:[1 TO 2]", x => x.Grade >= Level.Mid);
        yield return ("MaybeGrade@null:true", x => x.MaybeGrade == null);
        yield return ("MaybeGrade:0", x => x.MaybeGrade == Level.Low);
        yield return ("At@time:\"2020-01-01T08:00:00Z\"", x => x.At == H8);
        yield return ("At@time:\"2020-01-01T08:00:00.0000000Z\"", x => x.At == H8);
        yield return ("At@time:\"2020-01-01T08:00:00\"", x => x.At == H8);
        yield return ("At@time:[\"2020-01-01T09:00:00Z\" TO *]", x => x.At >= H9);
        yield return ("At@time:[2020-01-01T09:00:00Z TO *]", x => x.At >= H9);
        yield return ("At@time:{2020-01-01T08:00:00Z TO 2020-01-01T09:00:00.5Z]", x => x.At > H8 && x.At <= H9.AddMilliseconds(500));
        yield return ("At@time:[2020-01-01T08:00:00 TO 2020-01-01T08:00:00.25]", x => x.At >= H8 && x.At <= H8.AddMilliseconds(250));
        yield return ("At@time:[\"2020-01-01T10:00:00+02:00\" TO *]", x => x.At >= H8);
        yield return ("At@time:{\"2020-01-01T10:00:00+02:00\" TO *]", x => x.At > H8);
        yield return ("At@time:[* TO 2020-01-01T08:00:00.0000001Z]", x => x.At <= H8.AddTicks(1));
        yield return ("-At@time:[* TO 2020-01-01T08:00:00.0000001Z]", x => x.At > H8.AddTicks(1));
        yield return ("When@time:\"2020-01-01T09:00:00Z\"", x => x.When == new DateTimeOffset(H9));
        yield return ("When@time:\"2020-01-01T11:00:00+02:00\"", x => x.When == new DateTimeOffset(H9));
        yield return ("When@time:[\"2020-01-01T06:00:00-03:00\" TO \"2020-01-01T09:00:00Z\"}", x => x.When >= new DateTimeOffset(H9) && x.When < new DateTimeOffset(H9));
        yield return ("When@time:[\"2020-01-01T06:00:00-03:00\" TO \"2020-01-01T10:00:00Z\"}", x => x.When >= new DateTimeOffset(H9) && x.When < new DateTimeOffset(H9.AddHours(1)));
        yield return ("ShippedAt@time:[* TO \"2020-01-02T00:00:00Z\"}", x => x.ShippedAt < H8.Date.AddDays(1));
        yield return ("ShippedAt@null:true", x => x.ShippedAt == null);
        yield return ("ShippedAt:*", x => x.ShippedAt != null);
        yield return ("At:[2020-01-01T08:00:00 TO 2020-01-01T09:00:00]", x => string.CompareOrdinal(Text(x.At), "2020-01-01T08:00:00") >= 0 && string.CompareOrdinal(Text(x.At), "2020-01-01T09:00:00") <= 0);
        yield return ("At:2020-01-01T08\\:00\\:00Z", x => Text(x.At) == "2020-01-01T08:00:00Z");
        yield return ("At:\"2020-01-01T08:00:00Z\"", x => Text(x.At) == "2020-01-01T08:00:00Z");
        yield return ("At:2020-01-01T08*", x => Text(x.At).StartsWith("2020-01-01T08", StringComparison.Ordinal));
        yield return ("Tags:a", x => x.Tags.Contains("a"));
        yield return ("-Tags:a", x => !x.Tags.Contains("a"));
        yield return ("Tags:*", x => x.Tags.Count > 0);
        yield return ("-Tags:*", x => x.Tags.Count == 0);
        yield return ("Tags:[* TO *]", x => x.Tags.Count > 0);
        yield return ("Tags@count:0", x => x.Tags.Count == 0);
        yield return ("Tags@count:[2 TO *]", x => x.Tags.Count >= 2);
        yield return ("Tags:(a AND b)", x => x.Tags.Contains("a") && x.Tags.Contains("b"));
        yield return ("Tags:a AND -Tags:b", x => x.Tags.Contains("a") && !x.Tags.Contains("b"));
        yield return ("Tags:\"a b\"", x => x.Tags.Contains("a b"));
        yield return ("Tags:[a TO b]", x => x.Tags.Any(t => string.CompareOrdinal(t, "a") >= 0 && string.CompareOrdinal(t, "b") <= 0));
        yield return ("Tags:A*", x => x.Tags.Any(t => t.StartsWith('A')));
        yield return ("Tags@ci:A", x => x.Tags.Any(t => t.Equals("A", StringComparison.OrdinalIgnoreCase)));
        yield return ("Tags:\"\"", x => x.Tags.Contains(""));
        yield return ("*:*", x => true);
        yield return ("", x => true);
        yield return ("Rank:100", x => false);
        yield return ("-Rank:[* TO *]", x => false);
    }

    private async Task<(System.Net.HttpStatusCode Status, JsonDocument Body, string? ContentType)> GetAsync(string query, string extra = "", int pageSize = 1024)
    {
        var url = $"/indexes/dynamic/{_collection}?query={Uri.EscapeDataString(query)}&pageSize={pageSize}&waitForNonStaleResults=true&timeout=120{extra}";
        using var response = await _http.GetAsync(url);
        var text = await response.Content.ReadAsStringAsync();
        return (response.StatusCode, JsonDocument.Parse(text.Length == 0 ? "{}" : text), response.Content.Headers.ContentType?.MediaType);
    }

    private static List<string> Ids(JsonDocument body) =>
        [.. body.RootElement.GetProperty("Results").EnumerateArray().Select(r => r.GetProperty("@metadata").GetProperty("@id").GetString()!.ToLowerInvariant())];

    [Fact]
    public async Task Lucene_queries_as_a_curl_user_writes_them_answer_as_LINQ_to_Objects_or_are_a_400_problem()
    {
        var wrong = new List<string>();
        var refused = new List<string>();
        var right = 0;
        foreach (var (query, oracle) in Queries())
        {
            var expected = _items.Where(oracle).Select(x => x.Id!.ToLowerInvariant()).ToHashSet();
            var (status, body, contentType) = await GetAsync(query);
            using (body)
            {
                if (status == System.Net.HttpStatusCode.BadRequest && contentType == "application/problem+json")
                {
                    refused.Add($"{query}: {body.RootElement.GetProperty("detail").GetString()}");
                    continue;
                }
                if (status != System.Net.HttpStatusCode.OK)
                {
                    wrong.Add($"{query}: {(int)status} {contentType} {body.RootElement}");
                    continue;
                }
                var got = Ids(body);
                var total = body.RootElement.GetProperty("TotalResults").GetInt32();
                if (got.ToHashSet().SetEquals(expected) && got.Count == expected.Count && total == expected.Count)
                    right++;
                else
                    wrong.Add($"{query}: expected {expected.Count}, got {got.Count} (total {total}); missing {expected.Except(got).Count()}, extra {got.Except(expected).Count()}");
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong of {Queries().Count()}:\n" + string.Join("\n", wrong) + "\nrefused:\n" + string.Join("\n", refused));
        Assert.True(right >= Queries().Count() - 10, $"only {right} answered; refused:\n" + string.Join("\n", refused));
    }

    [Theory]
    [InlineData("Rank:-1")]
    [InlineData("Rank@dec:1.5x")]
    [InlineData("At@time:\"yesterday\"")]
    [InlineData("Name:(a")]
    [InlineData("Rank:[1 TO")]
    [InlineData("Name:a AND")]
    [InlineData("Price@dec:abc")]
    [InlineData("Name@nope:a")]
    [InlineData("Name:/[a/")]
    [InlineData("At@time:[2020-13-01 TO *]")]
    public async Task Malformed_queries_are_a_400_problem(string query)
    {
        var (status, body, contentType) = await GetAsync(query);
        using (body)
        {
            Assert.True(status == System.Net.HttpStatusCode.BadRequest, $"{query}: {(int)status} {body.RootElement}");
            Assert.Equal("application/problem+json", contentType);
        }
    }

    /// <summary>Sorts by the typed fields over HTTP, with ties and nulls: the order LINQ to Objects gives, ties in storage order.</summary>
    [Theory]
    [InlineData("Rank@dec", "Rank:[0 TO *]")]
    [InlineData("-Score@dec", "*:*")]
    [InlineData("Score@dec,-Price@dec", "*:*")]
    [InlineData("Tip@dec", "-Rank:1")]
    [InlineData("-Rating@num,Name", "*:*")]
    [InlineData("At@time", "*:*")]
    [InlineData("-When@time,Rank@dec", "*:*")]
    [InlineData("ShippedAt@time", "Flag:true")]
    [InlineData("Name", "*:*")]
    [InlineData("-Name,Weight@num", "*:*")]
    public async Task Sorted_queries_order_as_LINQ_to_Objects(string sort, string query)
    {
        var (status, body, _) = await GetAsync(query, "&sort=" + Uri.EscapeDataString(sort));
        using (body)
        {
            Assert.True(status == System.Net.HttpStatusCode.OK, body.RootElement.ToString());
            var filter = Queries().Single(q => q.Query == query).Oracle;
            IOrderedEnumerable<Item>? ordered = null;
            foreach (var key in sort.Split(','))
            {
                var descending = key.StartsWith('-');
                var member = key.TrimStart('-').Split('@')[0];
                var property = typeof(Item).GetProperty(member)!;
                if (property.PropertyType == typeof(string))
                {
                    Func<Item, string?> selector = x => (string?)property.GetValue(x);
                    ordered = ordered is null
                        ? descending ? _items.Where(filter).OrderByDescending(selector, StringComparer.Ordinal) : _items.Where(filter).OrderBy(selector, StringComparer.Ordinal)
                        : descending ? ordered.ThenByDescending(selector, StringComparer.Ordinal) : ordered.ThenBy(selector, StringComparer.Ordinal);
                }
                else
                {
                    Func<Item, object?> selector = x => property.GetValue(x);
                    var comparer = Comparer<object?>.Create((a, b) => a is null ? (b is null ? 0 : -1) : b is null ? 1 : ((IComparable)a).CompareTo(b));
                    ordered = ordered is null
                        ? descending ? _items.Where(filter).OrderByDescending(selector, comparer) : _items.Where(filter).OrderBy(selector, comparer)
                        : descending ? ordered.ThenByDescending(selector, comparer) : ordered.ThenBy(selector, comparer);
                }
            }
            var expected = ordered!.Select(x => x.Id!.ToLowerInvariant()).ToList();
            var got = Ids(body);
            Assert.True(expected.SequenceEqual(got), $"sort {sort}: first difference at {got.Zip(expected).TakeWhile(p => p.First == p.Second).Count()} of {expected.Count}");
        }
    }

    /// <summary>A typed field of numbers sorted by itself (its strings) would put every number first, unordered: a 400 problem naming the kinds that sort numbers.</summary>
    [Theory]
    [InlineData("Rank")]
    [InlineData("-Price")]
    [InlineData("Name,Score")]
    public async Task Sorting_numbers_by_the_field_itself_is_a_400_problem(string sort)
    {
        var (status, body, contentType) = await GetAsync("*:*", "&sort=" + Uri.EscapeDataString(sort));
        using (body)
        {
            Assert.True(status == System.Net.HttpStatusCode.BadRequest, $"{sort}: {(int)status}");
            Assert.Equal("application/problem+json", contentType);
            Assert.Contains("@dec", body.RootElement.GetProperty("detail").GetString(), StringComparison.Ordinal);
        }
    }

    /// <summary>Range facets whose bounds fall exactly on stored values (inclusive and exclusive), and value facets, against LINQ counts.</summary>
    [Fact]
    public async Task Range_facets_at_boundaries_count_as_LINQ_to_Objects()
    {
        var facets = new (string Facet, Func<Item, bool>[] Ranges)[]
        {
            ("Price@dec([* TO 1.5},[1.5 TO 1.5],{1.5 TO 10],{10 TO *])", [x => x.Price < 1.5m, x => x.Price == 1.5m, x => x.Price > 1.5m && x.Price <= 10m, x => x.Price > 10m]),
            ("Price@num([-3 TO 0],{0 TO 2.25})", [x => x.Price >= -3m && x.Price <= 0m, x => x.Price > 0m && x.Price < 2.25m]),
            ("Weight@num([-0 TO 0],[* TO -1],{-1 TO 0})", [x => x.Weight == 0, x => x.Weight <= -1, x => x.Weight > -1 && x.Weight < 0]),
            ("Score@dec([0 TO 1},[1 TO 3],{3 TO *])", [x => x.Score >= 0 && x.Score < 1, x => x.Score >= 1 && x.Score <= 3, x => x.Score > 3]),
            ("Tip@dec([* TO *])", [x => x.Tip != null]),
            ("Rank@dec([-2 TO -2],{-2 TO 0},[0 TO 0])", [x => x.Rank == -2, x => x.Rank > -2 && x.Rank < 0, x => x.Rank == 0]),
            ("Big@dec([9007199254740993 TO 9007199254740993],[* TO 9007199254740992])", [x => x.Big == 9007199254740993L, x => x.Big <= 9007199254740992L]),
            ("At@time([* TO \"2020-01-01T08:00:00Z\"],{\"2020-01-01T08:00:00Z\" TO \"2020-01-01T09:00:00Z\"},[\"2020-01-01T09:00:00Z\" TO *])",
                [x => x.At <= H8, x => x.At > H8 && x.At < H9, x => x.At >= H9]),
            ("When@time([\"2020-01-01T11:00:00+02:00\" TO \"2020-01-01T09:00:00Z\"])", [x => x.When == new DateTimeOffset(H9)]),
            ("ShippedAt@time([\"2020-01-02T00:00:00Z\" TO *])", [x => x.ShippedAt >= H8.Date.AddDays(1)]),
        };
        string[] queries = ["*:*", "Flag:true", "-Rank:1", "Rank:100"];
        var wrong = new List<string>();
        foreach (var query in queries)
        {
            var filter = Queries().Single(q => q.Query == query).Oracle;
            foreach (var (facet, ranges) in facets)
            {
                var (status, body, _) = await GetAsync(query, "&facet=" + Uri.EscapeDataString(facet), pageSize: 0);
                using (body)
                {
                    if (status != System.Net.HttpStatusCode.OK)
                    {
                        wrong.Add($"{query} {facet}: {(int)status} {body.RootElement}");
                        continue;
                    }
                    var result = body.RootElement.GetProperty("Facets")[0];
                    var counts = result.GetProperty("Values").EnumerateArray().Select(v => v.GetProperty("Count").GetInt32()).ToList();
                    var expected = ranges.Select(r => _items.Where(filter).Count(r)).ToList();
                    if (!counts.SequenceEqual(expected))
                        wrong.Add($"{query} {facet}: expected [{string.Join(",", expected)}], got [{string.Join(",", counts)}]");
                }
            }
            foreach (var (field, key) in new (string, Func<Item, string?>)[]
            {
                ("Name", x => x.Name),
                ("Rank@dec", x => x.Rank.ToString(CultureInfo.InvariantCulture)),
                ("Score@dec", x => x.Score?.ToString(CultureInfo.InvariantCulture)),
                ("Price@dec", x => x.Price.ToString("0.############", CultureInfo.InvariantCulture)),
                ("Flag", x => x.Flag ? "true" : "false"),
            })
            {
                var (status, body, _) = await GetAsync(query, "&facet=" + Uri.EscapeDataString(field + "(order=value)"), pageSize: 0);
                using (body)
                {
                    if (status != System.Net.HttpStatusCode.OK)
                    {
                        wrong.Add($"{query} {field}: {(int)status} {body.RootElement}");
                        continue;
                    }
                    var result = body.RootElement.GetProperty("Facets")[0];
                    var got = result.GetProperty("Values").EnumerateArray().Select(v => $"{v.GetProperty("Value").GetString()}={v.GetProperty("Count").GetInt32()}").ToList();
                    var matches = _items.Where(filter).ToList();
                    var expected = matches.Select(key).Where(v => v is not null).GroupBy(v => v!).Select(g => $"{g.Key}={g.Count()}").Order(StringComparer.Ordinal).ToList();
                    var missing = result.GetProperty("Missing").GetInt32();
                    if (!got.Order(StringComparer.Ordinal).SequenceEqual(expected) || missing != matches.Count(x => key(x) is null))
                        wrong.Add($"{query} {field}: expected [{string.Join(",", expected)}] missing {matches.Count(x => key(x) is null)}, got [{string.Join(",", got)}] missing {missing}");
                }
            }
        }
        Assert.True(wrong.Count == 0, string.Join("\n", wrong));
    }
}
