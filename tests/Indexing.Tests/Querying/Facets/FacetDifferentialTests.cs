using System.Globalization;
using System.Text.Json;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.Querying.Facets;

/// <summary>
/// Facets against LINQ to Objects: generated items (strings, integers, decimals, doubles, dates, string and integer
/// arrays, missing values), random queries, and per facet the oracle's GroupBy counts of the matching items.
/// </summary>
public sealed class FacetDifferentialTests : IDisposable
{
    private static readonly string[] Brands = ["Acme", "Bolt", "Cog", "Dyna", "Echo", "Flux"];
    private static readonly string[] TagNames = ["red", "green", "blue", "big", "small", "new"];

    private sealed record Item(string Key, string? Brand, int Qty, decimal Price, double? Rating, DateTime At, string[] Tags, int[] Sizes);

    private readonly TestIndexes _db = new();
    private readonly List<Item> _items = [];

    public FacetDifferentialTests()
    {
        var random = new Random(31);
        for (var i = 0; i < 400; i++)
        {
            var item = new Item(
                $"items/{i}",
                random.Next(10) == 0 ? null : Brands[random.Next(Brands.Length)],
                random.Next(0, 40),
                Math.Round((decimal)random.NextDouble() * 200m, random.Next(3)),
                random.Next(5) == 0 ? null : random.Next(0, 11) / 2.0,
                new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(random.Next(0, 24 * 60)),
                [.. Enumerable.Range(0, random.Next(0, 4)).Select(_ => TagNames[random.Next(TagNames.Length)])],
                [.. Enumerable.Range(0, random.Next(0, 3)).Select(_ => random.Next(0, 6))]);
            _items.Add(item);
            var json = JsonSerializer.Serialize(new Dictionary<string, object?>
            {
                ["Brand"] = item.Brand,
                ["Qty"] = item.Qty,
                ["Price"] = item.Price,
                ["Rating"] = item.Rating,
                ["At"] = item.At.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture),
                ["Tags"] = item.Tags,
                ["Sizes"] = item.Sizes,
            });
            _db.Put(item.Key, json, "Item");
        }
    }

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Facets_equal_linq_group_by_counts_for_random_queries()
    {
        var random = new Random(3131);
        for (var round = 0; round < 60; round++)
        {
            var (query, predicate) = RandomQuery(random);
            var matching = _items.Where(predicate).ToList();
            var requests = RandomFacets(random);
            var result = _db.Indexes.Query("dynamic/Item", new IndexQuery
            {
                Query = query,
                PageSize = 0,
                WaitForNonStaleResults = true,
                Timeout = TimeSpan.FromMinutes(2),
                Facets = requests,
            });

            Assert.Equal(matching.Count, result.TotalResults);
            for (var i = 0; i < requests.Count; i++)
                Assert.Equal(Oracle(requests[i], matching), Show(result.Facets[i]));
        }
    }

    private static string Show(FacetResult facet) =>
        $"{facet.Facet}: " + string.Join(" ", facet.Values.Select(v => $"{v.Value}={v.Count}")) + $" | rest {facet.RemainingValues}/{facet.RemainingCount} missing {facet.Missing}";

    private static (string Query, Func<Item, bool> Predicate) RandomQuery(Random random)
    {
        switch (random.Next(6))
        {
            case 0:
                return ("", _ => true);
            case 1:
                var brand = Brands[random.Next(Brands.Length)];
                return ($"Brand:\"{brand}\"", item => item.Brand == brand);
            case 2:
                var low = random.Next(0, 40);
                var high = low + random.Next(0, 20);
                return ($"Qty@dec:[{low} TO {high}]", item => item.Qty >= low && item.Qty <= high);
            case 3:
                var tag = TagNames[random.Next(TagNames.Length)];
                return ($"Tags:\"{tag}\"", item => item.Tags.Contains(tag));
            case 4:
                var from = new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddDays(random.Next(0, 60));
                return ($"At@time:[\"{from:yyyy-MM-ddTHH:mm:ssZ}\" TO *]", item => item.At >= from);
            default:
                var (left, leftPredicate) = RandomQuery(random);
                var (right, rightPredicate) = RandomQuery(random);
                if (left.Length == 0 || right.Length == 0)
                    return (left + right, item => leftPredicate(item) && rightPredicate(item));
                return random.Next(2) == 0
                    ? ($"({left}) AND ({right})", item => leftPredicate(item) && rightPredicate(item))
                    : ($"({left}) OR ({right})", item => leftPredicate(item) || rightPredicate(item));
        }
    }

    private static List<FacetRequest> RandomFacets(Random random)
    {
        var fields = new[] { "Brand", "Qty@dec", "Price@dec", "Rating@num", "At@time", "Tags", "Tags@count", "Sizes@dec", "Sizes@num" };
        var requests = new List<FacetRequest>();
        foreach (var field in fields.OrderBy(_ => random.Next()).Take(random.Next(1, 4)))
        {
            int? top = random.Next(3) == 0 ? null : random.Next(0, 6);
            var order = random.Next(2) == 0 ? FacetOrder.Count : FacetOrder.Value;
            requests.Add(new FacetRequest { Field = field, Top = top, Order = order });
        }
        if (random.Next(2) == 0)
            requests.Add(new FacetRequest { Field = "Price@dec", Ranges = RandomRanges(random, () => random.Next(0, 201).ToString(CultureInfo.InvariantCulture)) });
        if (random.Next(2) == 0)
            requests.Add(new FacetRequest { Field = "Qty@dec", Ranges = RandomRanges(random, () => random.Next(0, 41).ToString(CultureInfo.InvariantCulture)) });
        if (random.Next(2) == 0)
            requests.Add(new FacetRequest { Field = "Rating@num", Ranges = RandomRanges(random, () => (random.Next(0, 11) / 2.0).ToString("R", CultureInfo.InvariantCulture)) });
        if (random.Next(2) == 0)
            requests.Add(new FacetRequest { Field = "Sizes@num", Ranges = RandomRanges(random, () => random.Next(0, 6).ToString(CultureInfo.InvariantCulture)) });
        if (random.Next(2) == 0)
        {
            requests.Add(new FacetRequest
            {
                Field = "At@time",
                Ranges = RandomRanges(random, () => new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(random.Next(0, 24 * 60)).ToString("O", CultureInfo.InvariantCulture)),
            });
        }
        return requests;
    }

    /// <summary>Bounds drawn from the data's own values, so boundaries are hit; open ends and both bracket kinds.</summary>
    private static List<FacetRange> RandomRanges(Random random, Func<string> bound) =>
        [.. Enumerable.Range(0, random.Next(1, 5)).Select(_ =>
        {
            var a = random.Next(4) == 0 ? null : bound();
            var b = random.Next(4) == 0 ? null : bound();
            return new FacetRange { From = a, FromInclusive = random.Next(2) == 0, To = b, ToInclusive = random.Next(2) == 0 };
        })];

    /// <summary>The facet as LINQ to Objects counts it: each item's distinct values of the kind, grouped.</summary>
    private static string Oracle(FacetRequest request, List<Item> matching)
    {
        var (values, compare, format) = Values(request.Field);
        var perItem = matching.Select(item => values(item).Distinct().ToList()).ToList();
        var missing = perItem.Count(list => list.Count == 0);
        var result = new FacetResult
        {
            Facet = request.ToString(),
            Field = request.Field,
            Values = [],
            Missing = missing,
        };
        if (request.IsRange)
        {
            var ranges = request.Ranges!.Select(range => new FacetValue
            {
                Value = range.ToString(),
                Count = perItem.Count(list => list.Any(value => InRange(value, range, request.Field, compare))),
            }).ToList();
            return Show(new FacetResult { Facet = result.Facet, Field = result.Field, Values = ranges, Missing = missing });
        }
        var groups = perItem.SelectMany(list => list).GroupBy(value => value).Select(g => (Key: g.Key, Count: (long)g.Count())).ToList();
        groups.Sort(request.Order == FacetOrder.Value
            ? (a, b) => compare(a.Key, b.Key)
            : (a, b) => a.Count != b.Count ? b.Count.CompareTo(a.Count) : compare(a.Key, b.Key));
        var taken = groups.Take(request.Top ?? int.MaxValue).ToList();
        var rest = groups.Skip(taken.Count).ToList();
        return Show(new FacetResult
        {
            Facet = result.Facet,
            Field = result.Field,
            Values = [.. taken.Select(g => new FacetValue { Value = format(g.Key), Count = g.Count })],
            RemainingValues = rest.Count,
            RemainingCount = rest.Sum(g => g.Count),
            Missing = missing,
        });
    }

    private static (Func<Item, IEnumerable<object>> Values, Comparison<object> Compare, Func<object, string> Format) Values(string field) => field switch
    {
        "Brand" => (item => item.Brand is null ? [] : [item.Brand], (a, b) => string.CompareOrdinal((string)a, (string)b), value => (string)value),
        "Tags" => (item => item.Tags, (a, b) => string.CompareOrdinal((string)a, (string)b), value => (string)value),
        "Qty@dec" => (item => [(decimal)item.Qty], Decimals, FormatDecimal),
        "Price@dec" => (item => [item.Price], Decimals, FormatDecimal),
        "Sizes@dec" => (item => item.Sizes.Select(size => (object)(decimal)size), Decimals, FormatDecimal),
        "Sizes@num" => (item => item.Sizes.Select(size => (object)(double)size), Doubles, FormatDouble),
        "Rating@num" => (item => item.Rating is { } rating ? [rating] : [], Doubles, FormatDouble),
        "Tags@count" => (item => [(long)item.Tags.Length], (a, b) => ((long)a).CompareTo((long)b), value => ((long)value).ToString(CultureInfo.InvariantCulture)),
        "At@time" => (item => [item.At], (a, b) => ((DateTime)a).CompareTo((DateTime)b), value => ((DateTime)value).ToString("O", CultureInfo.InvariantCulture)),
        _ => throw new ArgumentOutOfRangeException(nameof(field), field, null),
    };

    private static int Decimals(object a, object b) => ((decimal)a).CompareTo((decimal)b);

    private static int Doubles(object a, object b) => ((double)a).CompareTo((double)b);

    /// <summary>A decimal without trailing zeros, as the index keeps it (<c>1.50</c> is <c>1.5</c>).</summary>
    private static string FormatDecimal(object value) => ((decimal)value / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture);

    private static string FormatDouble(object value) => ((double)value).ToString("R", CultureInfo.InvariantCulture);

    private static bool InRange(object value, FacetRange range, string field, Comparison<object> compare)
    {
        object Parse(string text) => field switch
        {
            "At@time" => DateTime.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal),
            "Rating@num" or "Sizes@num" => double.Parse(text, CultureInfo.InvariantCulture),
            _ => decimal.Parse(text, CultureInfo.InvariantCulture),
        };
        if (range.From is { } from)
        {
            var c = compare(value, Parse(from));
            if (c < 0 || (c == 0 && !range.FromInclusive))
                return false;
        }
        if (range.To is { } to)
        {
            var c = compare(value, Parse(to));
            if (c > 0 || (c == 0 && !range.ToInclusive))
                return false;
        }
        return true;
    }
}
