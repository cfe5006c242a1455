using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;
using RavenLite.Storage.Documents;

namespace RavenLite.Server.Tests.Indexes;

/// <summary>
/// Facets and <c>aggregate=</c> held to SQLite: random queries on the orders' collection (<c>dynamic/OracleOrder</c>,
/// answered by its auto index) with value facets (top N or all, by count or by value, the rest counted), range facets
/// and an aggregate, embedded and over HTTP, against SQL <c>GROUP BY</c> / <c>COUNT</c> with the <c>WHERE</c> the query
/// means, over the same generated orders (<see cref="OracleOrders"/>). A document counts once per distinct value it
/// holds (and once per range any of its values falls in); exact kinds (<c>@dec</c>, <c>@count</c>) are compared
/// exactly, cents as INTEGER in SQLite; <c>@num</c> sums within 1e-9 of the sum of the magnitudes.
/// </summary>
public sealed class FacetSqliteOracleTests
{
    private const string Index = "dynamic/" + OracleOrders.EntityName;

    private static readonly DocumentContent Metadata = DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{OracleOrders.EntityName}}"}""");

    [Theory]
    [InlineData(5)]
    [InlineData(2027)]
    public Task Random_facets_and_aggregates_of_random_queries_equal_SQL(int seed) => RunAsync(seed, rounds: 3, writesPerRound: 500, queries: 12);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(21)]
    [InlineData(22)]
    [InlineData(23)]
    public Task Many_random_facets_and_aggregates_equal_SQL(int seed) => RunAsync(seed, rounds: 6, writesPerRound: 2000, queries: 40);

    private static async Task RunAsync(int seed, int rounds, int writesPerRound, int queries)
    {
        await using var server = await TestServer.StartAsync();
        var database = server.App.Services.GetRequiredService<DocumentDatabase>();
        using var orders = new OracleOrders(seed, keys: writesPerRound);
        var random = orders.Random;
        for (var round = 0; round < rounds; round++)
        {
            for (var written = 0; written < writesPerRound;)
            {
                var changes = new Dictionary<string, string?>(StringComparer.Ordinal);
                for (var i = random.Next(1, 41); i > 0; i--, written++)
                {
                    var (key, json) = orders.Next();
                    changes[key] = json;
                }
                database.Batch([.. changes.Select(change => change.Value is null
                    ? BatchCommand.Delete(change.Key)
                    : BatchCommand.Put(change.Key, DocumentContent.FromJson(change.Value), Metadata))]);
            }
            for (var q = 0; q < queries; q++)
                await AssertQueryAsync(orders, database, server.Client, random);
        }
    }

    private enum Kind { Text, Whole, Cents, Double }

    /// <summary>A faceted field: its name in the query, its SQL value, whether it goes through the lines (many values per order).</summary>
    private sealed record Field(string Name, Kind Kind, string Column, bool PerLine)
    {
        /// <summary>The SQL condition that an order has a value satisfying <paramref name="condition"/> (of <c>v</c>).</summary>
        public string Has(string condition) => PerLine
            ? $"EXISTS (SELECT 1 FROM lines l WHERE l.key = o.key AND {condition.Replace("v", Column, StringComparison.Ordinal)})"
            : condition.Replace("v", Column, StringComparison.Ordinal);
    }

    private static readonly Field[] ValueFacets =
    [
        new("Status", Kind.Text, "o.status", false),
        new("Customer", Kind.Text, "o.customer", false),
        new("Lines.Sku", Kind.Text, "l.sku", true),
        new("Priority@dec", Kind.Whole, "o.priority", false),
        new("Lines.Qty@dec", Kind.Whole, "l.qty", true),
        new("Discount@dec", Kind.Cents, "o.discount_cents", false),
        new("Lines@count", Kind.Whole, "o.line_count", false),
    ];

    private static readonly Field[] RangeFacets =
    [
        new("Discount@dec", Kind.Cents, "o.discount_cents", false),
        new("Lines.Price@dec", Kind.Cents, "l.price_cents", true),
        new("Lines.Big@dec", Kind.Whole, "l.big", true),
        new("Priority@num", Kind.Whole, "o.priority", false),
        new("Lines.Weight@num", Kind.Double, "l.weight", true),
        new("Lines@count", Kind.Whole, "o.line_count", false),
    ];

    private static readonly Field[] Aggregates =
    [
        new("Discount@dec", Kind.Cents, "o.discount_cents", false),
        new("Priority@dec", Kind.Whole, "o.priority", false),
        new("Priority@num", Kind.Whole, "o.priority", false),
        new("Lines@count", Kind.Whole, "o.line_count", false),
        // The first value of each document (doc values): the first line that has one.
        new("Lines.Price@dec", Kind.Cents, "(SELECT l.price_cents FROM lines l WHERE l.key = o.key AND l.price_cents IS NOT NULL ORDER BY l.idx LIMIT 1)", false),
        new("Lines.Weight@num", Kind.Double, "(SELECT l.weight FROM lines l WHERE l.key = o.key AND l.weight IS NOT NULL ORDER BY l.idx LIMIT 1)", false),
    ];

    private static async Task AssertQueryAsync(OracleOrders orders, DocumentDatabase database, HttpClient http, Random random)
    {
        var (query, where, parameters) = Filter(orders, random);
        var facets = new List<(string Request, Func<FacetResultView> Expected)>();
        for (var i = random.Next(1, 4); i > 0; i--)
        {
            if (random.Next(3) == 0)
            {
                var field = RangeFacets[random.Next(RangeFacets.Length)];
                var ranges = Ranges(orders, field, random);
                facets.Add(($"{field.Name}({string.Join(",", ranges.Select(r => r.Text))})", () => ExpectedRanges(orders, field, ranges, where, parameters)));
            }
            else
            {
                var field = ValueFacets[random.Next(ValueFacets.Length)];
                int? top = random.Next(3) == 0 ? null : random.Next(0, 6);
                var byValue = random.Next(3) == 0;
                var options = new List<string>();
                if (top is { } t)
                    options.Add($"top={t}");
                if (byValue)
                    options.Add("order=value");
                facets.Add(($"{field.Name}{(options.Count == 0 ? "" : $"({string.Join(",", options)})")}", () => ExpectedValues(orders, field, top, byValue, where, parameters)));
            }
        }
        var aggregate = Aggregates[random.Next(Aggregates.Length)];
        var expectedAggregate = ExpectedAggregate(orders, aggregate, where, parameters);
        var expectedTotal = Count(orders, $"SELECT COUNT(*) FROM orders o WHERE {where}", parameters);
        var expectedFacets = facets.Select(f => f.Expected()).ToList();
        var description = $"query {query} (SQL WHERE {where}), facets {string.Join(" ", facets.Select(f => f.Request))}, aggregate {aggregate.Name}";

        // Embedded.
        var result = await database.QueryAsync(Index, new IndexQuery
        {
            Query = query,
            PageSize = 0,
            Facets = [.. facets.Select(f => FacetRequest.Parse(f.Request))],
            Aggregate = aggregate.Name,
            WaitForNonStaleResults = true,
        });
        Assert.False(result.IsStale);
        Assert.True(expectedTotal == result.TotalResults, $"embedded: {description}: SQL counts {expectedTotal}, the index {result.TotalResults}");
        var embedded = JsonSerializer.SerializeToElement(new { result.Facets, result.Aggregate });
        AssertAnswer(expectedFacets, expectedAggregate, aggregate, embedded, "embedded: " + description);

        // HTTP.
        var url = new StringBuilder($"/indexes/{Index}?pageSize=0&waitForNonStaleResults=true&aggregate={Uri.EscapeDataString(aggregate.Name)}");
        if (query is not null)
            url.Append("&query=").Append(Uri.EscapeDataString(query));
        foreach (var (request, _) in facets)
            url.Append("&facet=").Append(Uri.EscapeDataString(request));
        var body = await JsonAssert.ReadAsync(await http.GetAsync(url.ToString()), HttpStatusCode.OK);
        Assert.True(expectedTotal == body.GetProperty("TotalResults").GetInt32(), $"HTTP: {description}: SQL counts {expectedTotal}, the index {body.GetProperty("TotalResults")}");
        AssertAnswer(expectedFacets, expectedAggregate, aggregate, body, "HTTP: " + description);
    }

    /// <summary>A random query on the collection and the SQL WHERE over orders <c>o</c> that means the same.</summary>
    private static (string? Query, string Where, (string, object?)[] Parameters) Filter(OracleOrders orders, Random random)
    {
        var terms = new List<(string Query, string Where)>();
        var parameters = new List<(string, object?)>();
        for (var i = random.Next(0, 3); i > 0; i--)
        {
            switch (random.Next(5))
            {
                case 0:
                    var status = OracleOrders.Statuses[random.Next(OracleOrders.Statuses.Length)];
                    terms.Add(($"Status:\"{status}\"", $"o.status = '{status}'"));
                    break;
                case 1:
                    var customer = OracleOrders.Customers[random.Next(OracleOrders.Customers.Length)];
                    if (customer.Length == 0)
                        break;
                    parameters.Add(($"$c{i}", customer));
                    terms.Add(($"Customer:{Quote(customer)}", $"o.customer = $c{i}"));
                    break;
                case 2:
                    var (lo, hi) = (random.Next(-2, 6), random.Next(-2, 6));
                    terms.Add(($"Priority@dec:[\"{Math.Min(lo, hi)}\" TO \"{Math.Max(lo, hi)}\"]", $"o.priority BETWEEN {Math.Min(lo, hi)} AND {Math.Max(lo, hi)}"));
                    break;
                case 3:
                    var cents = random.Next(-5000, 5001);
                    terms.Add(($"Discount@dec:[* TO \"{cents / 100m}\"}}", $"o.discount_cents < {cents}"));
                    break;
                default:
                    var sku = OracleOrders.Skus[random.Next(OracleOrders.Skus.Length)];
                    if (sku.Length == 0)
                        break;
                    parameters.Add(($"$s{i}", sku));
                    terms.Add(($"Lines.Sku:{Quote(sku)}", $"EXISTS (SELECT 1 FROM lines l WHERE l.key = o.key AND l.sku = $s{i})"));
                    break;
            }
        }
        return terms.Count == 0
            ? (null, "1", [.. parameters])
            : (string.Join(" AND ", terms.Select(t => t.Query)), string.Join(" AND ", terms.Select(t => $"({t.Where})")), [.. parameters]);
    }

    private static string Quote(string value) => "\"" + value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"";

    private sealed record FacetResultView(List<(string Value, long Count)> Values, int RemainingValues, long RemainingCount, long Missing)
    {
        public override string ToString() =>
            $"[{string.Join(", ", Values.Select(v => $"{v.Value}={v.Count}"))}] remaining {RemainingValues}/{RemainingCount} missing {Missing}";
    }

    private static FacetResultView ExpectedValues(OracleOrders orders, Field field, int? top, bool byValue, string where, (string, object?)[] parameters)
    {
        var sql = field.PerLine
            ? $"SELECT {field.Column}, COUNT(DISTINCT o.key) FROM orders o JOIN lines l ON l.key = o.key WHERE ({where}) AND {field.Column} IS NOT NULL GROUP BY {field.Column}"
            : $"SELECT {field.Column}, COUNT(*) FROM orders o WHERE ({where}) AND {field.Column} IS NOT NULL GROUP BY {field.Column}";
        var rows = new List<(object Value, long Count)>();
        using (var command = orders.Command(sql, parameters))
        using (var reader = command.ExecuteReader())
        {
            while (reader.Read())
                rows.Add((reader.GetValue(0), reader.GetInt64(1)));
        }
        Comparison<object> byOrder = field.Kind == Kind.Text
            // Facets order strings as the docs say, ordinally (UTF-16 code units, as LINQ's StringComparer.Ordinal), not
            // in SQLite's BINARY (code point) order: U+1F642 comes before U+E000 here.
            ? (a, b) => string.CompareOrdinal((string)a, (string)b)
            : (a, b) => ((long)a).CompareTo((long)b);
        rows.Sort((a, b) => byValue || a.Count == b.Count ? byOrder(a.Value, b.Value) : b.Count.CompareTo(a.Count));
        var taken = Math.Min(rows.Count, top ?? int.MaxValue);
        var missing = Count(orders, $"SELECT COUNT(*) FROM orders o WHERE ({where}) AND NOT {field.Has("v IS NOT NULL")}", parameters);
        return new FacetResultView([.. rows.Take(taken).Select(r => (Text(r.Value, field.Kind), r.Count))], rows.Count - taken, rows.Skip(taken).Sum(r => r.Count), missing);
    }

    private static string Text(object value, Kind kind) => value switch
    {
        string s => s,
        long l when kind == Kind.Cents => Normal(l / 100m),
        long l => l.ToString(CultureInfo.InvariantCulture),
        _ => $"?{value}",
    };

    private static string Normal(decimal value) => value == 0 ? "0" : (value / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture);

    private sealed record Range(string Text, string Condition);

    /// <summary>Random ranges over the field's values: bounds that are values (so ties at bounds are met), open ends, both brackets.</summary>
    private static List<Range> Ranges(OracleOrders orders, Field field, Random random)
    {
        var source = field.PerLine ? "lines l" : "orders o";
        var ranges = new List<Range>();
        for (var i = random.Next(1, 5); i > 0; i--)
        {
            string? Bound(out string sql)
            {
                sql = "";
                if (random.Next(5) == 0)
                    return null;
                var value = orders.Pick($"SELECT {field.Column} FROM {source} WHERE {field.Column} IS NOT NULL");
                switch (value)
                {
                    case long l:
                        sql = l.ToString(CultureInfo.InvariantCulture);
                        return field.Kind == Kind.Cents ? Normal(l / 100m) : sql;
                    case double d:
                        sql = d.ToString("R", CultureInfo.InvariantCulture);
                        return sql;
                    default:
                        return null;
                }
            }
            var from = Bound(out var fromSql);
            var to = Bound(out var toSql);
            var (open, close) = (random.Next(2) == 0 ? "[" : "{", random.Next(2) == 0 ? "]" : "}");
            var conditions = new List<string>();
            if (from is not null)
                conditions.Add($"v {(open == "[" ? ">=" : ">")} {fromSql}");
            if (to is not null)
                conditions.Add($"v {(close == "]" ? "<=" : "<")} {toSql}");
            conditions.Add("v IS NOT NULL");
            ranges.Add(new Range($"{open}{from ?? "*"} TO {to ?? "*"}{close}", string.Join(" AND ", conditions)));
        }
        return ranges;
    }

    private static FacetResultView ExpectedRanges(OracleOrders orders, Field field, List<Range> ranges, string where, (string, object?)[] parameters)
    {
        var values = ranges.Select(r => (r.Text, Count(orders, $"SELECT COUNT(*) FROM orders o WHERE ({where}) AND {field.Has(r.Condition)}", parameters))).ToList();
        var missing = Count(orders, $"SELECT COUNT(*) FROM orders o WHERE ({where}) AND NOT {field.Has("v IS NOT NULL")}", parameters);
        return new FacetResultView(values, 0, 0, missing);
    }

    private sealed record AggregateView(long Count, decimal? Sum, decimal? Min, decimal? Max, double SumOfMagnitudes);

    private static AggregateView ExpectedAggregate(OracleOrders orders, Field field, string where, (string, object?)[] parameters)
    {
        using var command = orders.Command(
            $"SELECT COUNT(v), SUM(v), MIN(v), MAX(v), TOTAL(ABS(v)) FROM (SELECT {field.Column} AS v FROM orders o WHERE {where})", parameters);
        using var reader = command.ExecuteReader();
        reader.Read();
        var count = reader.GetInt64(0);
        var unit = field.Kind == Kind.Cents ? 100m : 1m;
        decimal? Read(int i) => reader.IsDBNull(i) ? null : field.Kind == Kind.Double ? (decimal)reader.GetDouble(i) : reader.GetInt64(i) / unit;
        return new AggregateView(count, count == 0 ? 0 : Read(1), Read(2), Read(3), reader.GetDouble(4));
    }

    private static void AssertAnswer(List<FacetResultView> expectedFacets, AggregateView expectedAggregate, Field aggregateField, JsonElement answer, string description)
    {
        var wrong = new StringBuilder();
        var facets = answer.GetProperty("Facets").EnumerateArray().ToList();
        Assert.Equal(expectedFacets.Count, facets.Count);
        for (var i = 0; i < facets.Count; i++)
        {
            var actual = new FacetResultView(
                [.. facets[i].GetProperty("Values").EnumerateArray().Select(v => (v.GetProperty("Value").GetString()!, v.GetProperty("Count").GetInt64()))],
                facets[i].GetProperty("RemainingValues").GetInt32(), facets[i].GetProperty("RemainingCount").GetInt64(), facets[i].GetProperty("Missing").GetInt64());
            var expected = expectedFacets[i];
            if (!expected.Values.SequenceEqual(actual.Values) || (expected.RemainingValues, expected.RemainingCount, expected.Missing) != (actual.RemainingValues, actual.RemainingCount, actual.Missing))
                wrong.AppendLine(CultureInfo.InvariantCulture, $"facet {facets[i].GetProperty("Facet")}:\n  SQL   {expected}\n  index {actual}");
        }

        var aggregate = answer.GetProperty("Aggregate");
        var exact = aggregateField.Name.EndsWith("@dec", StringComparison.Ordinal) || aggregateField.Name.EndsWith("@count", StringComparison.Ordinal);
        decimal? Get(string name) => aggregate.GetProperty(name).ValueKind == JsonValueKind.Null ? null : aggregate.GetProperty(name).GetDecimal();
        var (sum, min, max) = exact ? (Get("ExactSum"), Get("ExactMin"), Get("ExactMax")) : (Get("Sum"), Get("Min"), Get("Max"));
        var count = aggregate.GetProperty("Count").GetInt64();
        var tolerance = (decimal)(1e-9 * (expectedAggregate.SumOfMagnitudes + 1));
        bool Near(decimal? a, decimal? b) => exact ? a == b : a is null ? b is null : b is not null && Math.Abs(a.Value - b.Value) <= tolerance;
        if (count != expectedAggregate.Count || !Near(sum, expectedAggregate.Sum) || !Near(min, expectedAggregate.Min) || !Near(max, expectedAggregate.Max))
            wrong.AppendLine(CultureInfo.InvariantCulture, $"aggregate {aggregateField.Name}: SQL {expectedAggregate}, index {aggregate}");
        Assert.True(wrong.Length == 0, $"{description}\n{wrong}");
    }

    private static long Count(OracleOrders orders, string sql, (string, object?)[] parameters)
    {
        using var command = orders.Command(sql, parameters);
        return (long)command.ExecuteScalar()!;
    }
}
