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
/// Map/reduce indexes held to SQLite's <c>GROUP BY</c>: random definitions (group keys and aggregates picked from the
/// generated orders' fields, per order or per order line) over thousands of random puts, updates that move orders
/// between groups, and deletes (whole groups too), mirrored into SQLite (<see cref="OracleOrders"/>). After each
/// round every group's Count, Sum, Min, Max and Average, read as a user reads them (embedded
/// <see cref="DocumentDatabase.Query"/> and <c>GET /indexes/{name}</c>), must equal the SQL's, and random filters,
/// sorts and pages over the results must equal <c>WHERE</c> / <c>ORDER BY</c> / <c>LIMIT OFFSET</c> over the grouped
/// rows. Whole numbers and two-place decimals (cents in SQLite) are compared exactly, the average as the docs define
/// it (the exact sum divided by the number of values, in decimal); doubles (SQLite REAL) within 1e-9 of the sum of
/// the magnitudes summed.
/// </summary>
public sealed class MapReduceSqliteOracleTests
{
    private const double Tolerance = 1e-9;

    private static readonly DocumentContent Metadata = DocumentContent.FromJson($$"""{"Raven-Entity-Name":"{{OracleOrders.EntityName}}"}""");

    [Theory]
    [InlineData(3)]
    [InlineData(1031)]
    public Task Random_definitions_after_random_puts_moves_and_deletes_equal_SQL_GROUP_BY(int seed) =>
        RunAsync(seed, definitions: 3, rounds: 3, writesPerRound: 500, keys: 400);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    [InlineData(14)]
    public Task Many_random_definitions_after_many_writes_equal_SQL_GROUP_BY(int seed) =>
        RunAsync(seed, definitions: 8, rounds: 8, writesPerRound: 1500, keys: 2000);

    private static async Task RunAsync(int seed, int definitions, int rounds, int writesPerRound, int keys)
    {
        await using var server = await TestServer.StartAsync();
        var database = server.App.Services.GetRequiredService<DocumentDatabase>();
        using var orders = new OracleOrders(seed, keys);
        var random = orders.Random;
        var reduces = new List<Reduce>();
        for (var i = 0; i < definitions; i++)
        {
            var reduce = Reduce.Generate(random, $"Oracle/S{seed}D{i}");
            var put = await server.Client.PutAsync("/indexes/" + reduce.Name, TestServer.Json(reduce.Json));
            Assert.True(put.StatusCode == HttpStatusCode.Created, $"{reduce.Json}: {await put.Content.ReadAsStringAsync()}");
            reduces.Add(reduce);
        }

        for (var round = 0; round < rounds; round++)
        {
            var written = 0;
            while (written < writesPerRound)
            {
                // Up to 20 changes per transaction, a key at most once, so the indexer sees many changes per batch.
                var changes = new Dictionary<string, string?>(StringComparer.Ordinal);
                for (var i = random.Next(1, 21); i > 0; i--, written++)
                {
                    var (key, json) = orders.Next();
                    changes[key] = json;
                }
                if (random.Next(10) == 0)
                {
                    // Some single writes over HTTP as well.
                    foreach (var (key, json) in changes)
                    {
                        var response = json is null ? await server.Client.DeleteAsync("/docs/" + key) : await server.PutAsync(key, json, OracleOrders.EntityName);
                        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
                    }
                }
                else
                {
                    database.Batch([.. changes.Select(change => change.Value is null
                        ? BatchCommand.Delete(change.Key)
                        : BatchCommand.Put(change.Key, DocumentContent.FromJson(change.Value), Metadata))]);
                }
            }
            // The last order of a customer leaving: every order of one customer deleted.
            var customer = OracleOrders.Customers[random.Next(OracleOrders.Customers.Length)];
            var leaving = orders.CustomerOf.Where(o => o.Value == customer).Select(o => o.Key).ToList();
            foreach (var key in leaving)
                orders.Delete(key);
            if (leaving.Count > 0)
                database.Batch([.. leaving.Select(key => BatchCommand.Delete(key))]);

            foreach (var reduce in reduces)
            {
                var expected = reduce.Expected(orders);
                AssertGroups(reduce, expected, await AllAsync(database, reduce.Name, http: null), "embedded", round);
                AssertGroups(reduce, expected, await AllAsync(database, reduce.Name, server.Client), "HTTP", round);
                for (var q = 0; q < 6; q++)
                    await AssertQueryAsync(reduce, orders, database, server.Client, random);
            }
        }
    }

    internal static async Task<List<JsonElement>> AllAsync(DocumentDatabase? database, string index, HttpClient? http)
    {
        var results = new List<JsonElement>();
        while (true)
        {
            var page = await PageAsync(database, index, http, "*:*", sort: null, results.Count, 1024);
            results.AddRange(page.Results);
            if (page.Results.Count == 0 || results.Count >= page.Total)
                return results;
        }
    }

    private static async Task<(int Total, List<JsonElement> Results)> PageAsync(DocumentDatabase? database, string index, HttpClient? http,
        string query, string? sort, int start, int pageSize)
    {
        if (http is null)
        {
            var result = await database!.QueryAsync(index, new IndexQuery
            {
                Query = query,
                SortBy = sort is null ? null : [sort],
                Start = start,
                PageSize = pageSize,
                WaitForNonStaleResults = true,
            });
            Assert.False(result.IsStale);
            return (result.TotalResults, [.. result.Results.Select(r => r.Data.Clone())]);
        }
        var url = $"/indexes/{index}?query={Uri.EscapeDataString(query)}&start={start}&pageSize={pageSize}&waitForNonStaleResults=true"
            + (sort is null ? "" : "&sort=" + Uri.EscapeDataString(sort));
        var body = await JsonAssert.ReadAsync(await http.GetAsync(url), HttpStatusCode.OK);
        Assert.False(body.GetProperty("IsStale").GetBoolean());
        return (body.GetProperty("TotalResults").GetInt32(), [.. body.GetProperty("Results").EnumerateArray()]);
    }

    internal static void AssertGroups(Reduce reduce, Dictionary<string, Expected[]> expected, List<JsonElement> results, string how, int round)
    {
        var wrong = new StringBuilder();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var result in results)
        {
            var identity = reduce.Identity(result);
            if (!seen.Add(identity))
            {
                wrong.AppendLine(CultureInfo.InvariantCulture, $"group {identity} returned twice: {result}");
                continue;
            }
            if (!expected.TryGetValue(identity, out var values))
            {
                wrong.AppendLine(CultureInfo.InvariantCulture, $"group {identity} is not in SQL's GROUP BY: {result}");
                continue;
            }
            for (var i = 0; i < reduce.Aggregates.Count; i++)
            {
                var (name, _, _) = reduce.Aggregates[i];
                var actual = result.GetProperty(name);
                if (!values[i].Matches(actual))
                    wrong.AppendLine(CultureInfo.InvariantCulture, $"group {identity} {reduce.Aggregates[i]}: SQL {values[i]}, index {actual}");
            }
        }
        foreach (var identity in expected.Keys.Where(k => !seen.Contains(k)))
            wrong.AppendLine(CultureInfo.InvariantCulture, $"group {identity} is missing");
        Assert.True(wrong.Length == 0, $"{reduce.Json} ({how}, round {round}):\n{wrong}");
    }

    /// <summary>A random filter, sort and page over the results, against the same over SQL's grouped rows.</summary>
    private static async Task AssertQueryAsync(Reduce reduce, OracleOrders orders, DocumentDatabase database, HttpClient http, Random random)
    {
        var groups = reduce.Grouped();
        string query = "*:*", where = "1";
        var parameters = new List<(string, object?)>();
        switch (random.Next(4))
        {
            case 1:
                // Bounds that are counts of groups, so ties at the bounds are met.
                var lo = (long?)orders.Pick($"WITH g AS ({groups}) SELECT n FROM g") ?? 1;
                var hi = Math.Max(lo, (long?)orders.Pick($"WITH g AS ({groups}) SELECT n FROM g") ?? 1);
                var (open, close) = (random.Next(2) == 0 ? "[" : "{", random.Next(2) == 0 ? "]" : "}");
                query = $"N:{open}{lo} TO {hi}{close}";
                where = $"n {(open == "[" ? ">=" : ">")} {lo} AND n {(close == "]" ? "<=" : "<")} {hi}";
                break;
            case 2 when reduce.ExactValues().ToList() is { Count: > 0 } values:
                var (column, name, field) = values[random.Next(values.Count)];
                // A bound that is one of the values (so ties at the bound are met), or a random one.
                var bound = (long?)orders.Pick($"WITH g AS ({groups}) SELECT {column} FROM g WHERE {column} IS NOT NULL") ?? 0;
                var text = field.Kind == Kind.Cents ? (bound / 100m).ToString(CultureInfo.InvariantCulture) : bound.ToString(CultureInfo.InvariantCulture);
                var upward = random.Next(2) == 0;
                query = upward ? $"{name}:[{text} TO *]" : $"{name}:[* TO {text}}}";
                where = upward ? $"{column} >= {bound}" : $"{column} < {bound}";
                break;
            case 3 when reduce.TextKeys().ToList() is { Count: > 0 } textKeys:
                var (keyColumn, keyName) = textKeys[random.Next(textKeys.Count)];
                var value = (string?)orders.Pick($"WITH g AS ({groups}) SELECT {keyColumn} FROM g WHERE {keyColumn} IS NOT NULL");
                if (value is null || value.Length == 0)
                    break;
                query = $"{keyName}:\"{value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal)}\"";
                where = $"{keyColumn} = $v";
                parameters.Add(("$v", value));
                break;
        }
        var sortable = new List<(string Column, string Name)> { ("n", "N") };
        sortable.AddRange(reduce.ExactSums().Select(s => (s.Column, s.Name)));
        sortable.AddRange(reduce.TextKeys().Where(k => k.Name == "Customer")); // never null; code-point order, as SQLite's BINARY
        var sorted = random.Next(4) != 0;
        var (sortColumn, sortName) = sortable[random.Next(sortable.Count)];
        var descending = random.Next(2) == 0;

        var total = (int)ScalarLong(orders, $"WITH g AS ({groups}) SELECT COUNT(*) FROM g WHERE {where}", [.. parameters])!.Value;
        var start = random.Next(0, total + 2);
        var pageSize = random.Next(1, 40);
        var expectedSortValues = new List<string>();
        if (sorted)
        {
            using var command = orders.Command(
                $"WITH g AS ({groups}) SELECT {sortColumn} FROM g WHERE {where} ORDER BY {sortColumn} {(descending ? "DESC" : "ASC")} LIMIT {pageSize} OFFSET {start}",
                [.. parameters]);
            using var reader = command.ExecuteReader();
            while (reader.Read())
                expectedSortValues.Add(SortText(reader.GetValue(0), reduce.KindOf(sortName)));
        }
        var description = $"{reduce.Json}\nquery {query} (SQL WHERE {where}), sort {(sorted ? (descending ? "-" : "") + sortName : "none")}, start {start}, pageSize {pageSize}";
        foreach (var client in new[] { null, http })
        {
            var (actualTotal, page) = await PageAsync(database, reduce.Name, client, query, sorted ? (descending ? "-" : "") + sortName : null, start, pageSize);
            var how = client is null ? "embedded" : "HTTP";
            Assert.True(total == actualTotal, $"{how}: {description}: SQL counts {total}, the index {actualTotal}");
            Assert.True(Math.Clamp(total - start, 0, pageSize) == page.Count, $"{how}: {description}: page of {page.Count}");
            if (sorted)
            {
                var actualSortValues = page.Select(r => SortText(r.GetProperty(sortName), reduce.KindOf(sortName))).ToList();
                Assert.True(expectedSortValues.SequenceEqual(actualSortValues, StringComparer.Ordinal),
                    $"{how}: {description}:\nSQL   {string.Join(" | ", expectedSortValues)}\nindex {string.Join(" | ", actualSortValues)}");
            }
        }
    }

    private static string SortText(object value, Kind kind) => value switch
    {
        JsonElement { ValueKind: JsonValueKind.String } e => e.GetString()!,
        JsonElement { ValueKind: JsonValueKind.Number } e => Normal(e.GetDecimal()),
        string s => s,
        long l => Normal(kind == Kind.Cents ? l / 100m : l),
        _ => $"?{value}",
    };

    private static string Normal(decimal value) => (value / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture);

    private static long? ScalarLong(OracleOrders orders, string sql, params (string, object?)[] parameters)
    {
        using var command = orders.Command(sql, parameters);
        return command.ExecuteScalar() is long value ? value : null;
    }

    internal enum Kind { Text, Long, Cents, Double }

    internal sealed record Field(string Name, string Path, Kind Kind, string Column, bool PerLine)
    {
        public string? Sort => Kind switch { Kind.Long => "Long", Kind.Cents or Kind.Double => "Double", _ => null };
    }

    internal static readonly Field[] KeyFields =
    [
        new("Customer", "Customer", Kind.Text, "o.customer", false),
        new("Status", "Status", Kind.Text, "o.status", false),
        new("Priority", "Priority", Kind.Long, "o.priority", false),
        new("Sku", "Lines[].Sku", Kind.Text, "l.sku", true),
    ];

    internal static readonly Field[] ValueFields =
    [
        new("Discount", "Discount", Kind.Cents, "o.discount_cents", false),
        new("Qty", "Lines[].Qty", Kind.Long, "l.qty", true),
        new("Big", "Lines[].Big", Kind.Long, "l.big", true),
        new("Price", "Lines[].Price", Kind.Cents, "l.price_cents", true),
        new("Weight", "Lines[].Weight", Kind.Double, "l.weight", true),
    ];

    private static readonly string[] Functions = ["Sum", "Min", "Max", "Average"];

    /// <summary>A generated definition: group keys, and aggregates (N, the count, first) over the value fields.</summary>
    internal sealed class Reduce
    {
        private Reduce(string name, List<Field> keys, List<(string Name, string Function, Field? Field)> aggregates)
        {
            Name = name;
            Keys = keys;
            Aggregates = aggregates;
            PerLine = keys.Any(k => k.PerLine) || aggregates.Any(a => a.Field?.PerLine == true);
            var fields = keys.Concat(aggregates.Where(a => a.Field is not null).Select(a => a.Field!)).Distinct()
                .Select(f => f.Sort is null ? $$"""{"Name":"{{f.Name}}","Path":"{{f.Path}}"}""" : $$"""{"Name":"{{f.Name}}","Path":"{{f.Path}}","Sort":"{{f.Sort}}"}""");
            var reduce = string.Join(",", aggregates.Select(a => a.Field is null
                ? $$"""{"Name":"{{a.Name}}","Function":"{{a.Function}}"}"""
                : $$"""{"Name":"{{a.Name}}","Function":"{{a.Function}}","Field":"{{a.Field.Name}}"}"""));
            var groupBy = string.Join(",", keys.Select(k => $"\"{k.Name}\""));
            Json = $$$"""{"EntityName":"{{{OracleOrders.EntityName}}}","Fields":[{{{string.Join(",", fields)}}}],"Reduce":{"GroupBy":[{{{groupBy}}}],"Aggregates":[{{{reduce}}}]}}""";
        }

        public string Name { get; }

        public List<Field> Keys { get; }

        public List<(string Name, string Function, Field? Field)> Aggregates { get; }

        public bool PerLine { get; }

        public string Json { get; }

        public static Reduce Generate(Random random, string name)
        {
            var keys = KeyFields.OrderBy(_ => random.Next()).Take(random.Next(1, 3)).ToList();
            var aggregates = new List<(string, string, Field?)> { ("N", "Count", null) };
            var pairs = Functions.SelectMany(f => ValueFields.Select(v => (f, v))).OrderBy(_ => random.Next()).Take(random.Next(1, 6));
            foreach (var (function, field) in pairs)
                aggregates.Add(($"A{aggregates.Count}", function, field));
            return new Reduce(name, keys, aggregates);
        }

        public Kind KindOf(string name) =>
            Keys.FirstOrDefault(k => k.Name == name)?.Kind
            ?? (name == "N" ? Kind.Long : Aggregates.First(a => a.Name == name).Field!.Kind);

        /// <summary>Sums of whole numbers and of cents: exact in SQLite, never null.</summary>
        public IEnumerable<(string Column, string Name, Field Field)> ExactSums() =>
            Aggregates.Select((a, i) => (Column: $"a{i}", a.Name, a.Function, a.Field))
                .Where(a => a.Function == "Sum" && a.Field!.Kind != Kind.Double)
                .Select(a => (a.Column, a.Name, a.Field!));

        /// <summary>Sums, minimums and maximums of whole numbers and of cents: exact in SQLite (the last two null without values).</summary>
        public IEnumerable<(string Column, string Name, Field Field)> ExactValues() =>
            Aggregates.Select((a, i) => (Column: $"a{i}", a.Name, a.Function, a.Field))
                .Where(a => a.Function is "Sum" or "Min" or "Max" && a.Field!.Kind != Kind.Double)
                .Select(a => (a.Column, a.Name, a.Field!));

        public IEnumerable<(string Column, string Name)> TextKeys() =>
            Keys.Select((k, i) => (Column: $"k{i}", k.Name, k.Kind)).Where(k => k.Kind == Kind.Text).Select(k => (k.Column, k.Name));

        private string Source => PerLine ? "orders o JOIN lines l ON l.key = o.key" : "orders o";

        /// <summary>The grouped rows as SQL: k0.. the keys, n the count, a1.. the aggregates (cents for decimals).</summary>
        public string Grouped()
        {
            var columns = Keys.Select((k, i) => $"{k.Column} AS k{i}").ToList();
            columns.AddRange(Aggregates.Select((a, i) => a.Function switch
            {
                "Count" => $"COUNT(*) AS n",
                "Sum" => $"COALESCE(SUM({a.Field!.Column}), 0) AS a{i}",
                "Min" => $"MIN({a.Field!.Column}) AS a{i}",
                "Max" => $"MAX({a.Field!.Column}) AS a{i}",
                _ => $"AVG({a.Field!.Column}) AS a{i}",
            }));
            return $"SELECT {string.Join(", ", columns)} FROM {Source} GROUP BY {string.Join(", ", Keys.Select(k => k.Column))}";
        }

        /// <summary>Every group's expected aggregates, by <see cref="Identity(JsonElement)"/>.</summary>
        public Dictionary<string, Expected[]> Expected(OracleOrders orders)
        {
            var columns = Keys.Select(k => k.Column).ToList();
            columns.Add("COUNT(*)");
            foreach (var (_, _, field) in Aggregates.Skip(1))
                columns.AddRange([$"SUM({field!.Column})", $"COUNT({field.Column})", $"MIN({field.Column})", $"MAX({field.Column})", $"SUM(ABS({field.Column}))"]);
            using var command = orders.Command($"SELECT {string.Join(", ", columns)} FROM {Source} GROUP BY {string.Join(", ", Keys.Select(k => k.Column))}");
            using var reader = command.ExecuteReader();
            var expected = new Dictionary<string, Expected[]>(StringComparer.Ordinal);
            while (reader.Read())
            {
                var identity = Identity(Keys.Select((k, i) => reader.IsDBNull(i) ? null : k.Kind == Kind.Text ? "s:" + reader.GetString(i) : "n:" + reader.GetInt64(i)));
                var values = new Expected[Aggregates.Count];
                var column = Keys.Count;
                values[0] = MapReduceSqliteOracleTests.Expected.Exact(reader.GetInt64(column++));
                for (var i = 1; i < Aggregates.Count; i++, column += 5)
                {
                    var (_, function, field) = Aggregates[i];
                    var count = reader.GetInt64(column + 1);
                    values[i] = field!.Kind == Kind.Double
                        ? Approximate(function, count, count == 0 ? 0 : reader.GetDouble(column), count == 0 ? 0 : reader.GetDouble(column + 2),
                            count == 0 ? 0 : reader.GetDouble(column + 3), count == 0 ? 0 : reader.GetDouble(column + 4))
                        : ExactOf(function, count, field.Kind == Kind.Cents ? 100m : 1m,
                            count == 0 ? 0 : reader.GetInt64(column), count == 0 ? 0 : reader.GetInt64(column + 2), count == 0 ? 0 : reader.GetInt64(column + 3));
                }
                expected.Add(identity, values);
            }
            return expected;
        }

        private static Expected ExactOf(string function, long count, decimal unit, long sum, long min, long max) => function switch
        {
            "Sum" => MapReduceSqliteOracleTests.Expected.Exact(sum / unit),
            _ when count == 0 => MapReduceSqliteOracleTests.Expected.Null,
            "Min" => MapReduceSqliteOracleTests.Expected.Exact(min / unit),
            "Max" => MapReduceSqliteOracleTests.Expected.Exact(max / unit),
            _ => MapReduceSqliteOracleTests.Expected.Exact(sum / unit / count), // the docs' average: the exact sum over the count, in decimal
        };

        private static Expected Approximate(string function, long count, double sum, double min, double max, double magnitude) => function switch
        {
            "Sum" => new Expected(null, sum, Tolerance * (magnitude + 1)),
            _ when count == 0 => MapReduceSqliteOracleTests.Expected.Null,
            "Min" => new Expected(null, min, Tolerance * (Math.Abs(min) + 1)),
            "Max" => new Expected(null, max, Tolerance * (Math.Abs(max) + 1)),
            _ => new Expected(null, sum / count, Tolerance * (magnitude / count + 1)),
        };

        /// <summary>A result's group, written as the SQL rows' are: strings as they are, numbers by value.</summary>
        public string Identity(JsonElement result) => Identity(Keys.Select(k => result.GetProperty(k.Name) switch
        {
            { ValueKind: JsonValueKind.Null } => null,
            { ValueKind: JsonValueKind.String } s => "s:" + s.GetString(),
            var n => "n:" + Normal(n.GetDecimal()),
        }));

        private static string Identity(IEnumerable<string?> keys) => JsonSerializer.Serialize(keys.ToArray());
    }

    /// <summary>An expected aggregate: exact (decimal), approximate (a double within a tolerance), or null.</summary>
    internal sealed record Expected(decimal? Value, double? Approximately, double Within)
    {
        public static readonly Expected Null = new(null, null, 0);

        public static Expected Exact(decimal value) => new(value, null, 0);

        public bool Matches(JsonElement actual)
        {
            if (actual.ValueKind == JsonValueKind.Null)
                return Value is null && Approximately is null;
            if (actual.ValueKind != JsonValueKind.Number)
                return false;
            if (Value is { } exact)
                return actual.GetDecimal() == exact;
            return Approximately is { } approximately && Math.Abs((double)actual.GetDecimal() - approximately) <= Within;
        }

        public override string ToString() =>
            Value?.ToString(CultureInfo.InvariantCulture) ?? (Approximately is { } a ? $"{a.ToString("R", CultureInfo.InvariantCulture)} ±{Within:G3}" : "null");
    }
}
