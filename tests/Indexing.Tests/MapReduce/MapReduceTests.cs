using System.Globalization;
using System.Text.Json;
using RavenLite.Indexing.Definitions;
using RavenLite.Indexing.Tests.Infrastructure;

namespace RavenLite.Indexing.Tests.MapReduce;

public sealed class MapReduceTests : IDisposable
{
    private readonly TestIndexes _db = new();

    public void Dispose() => _db.Dispose();

    internal static IndexDefinition TotalsByCustomer { get; } = IndexDefinition.FromJson("""
        {"Name": "Orders/TotalsByCustomer", "EntityName": "Order",
         "Fields": [{"Name": "Customer", "Path": "Customer"},
                    {"Name": "Price", "Path": "Lines[].Price", "Sort": "Double"},
                    {"Name": "Quantity", "Path": "Lines[].Quantity", "Sort": "Long"}],
         "Reduce": {"GroupBy": ["Customer"],
                    "Aggregates": [{"Name": "Lines", "Function": "Count"},
                                   {"Name": "Total", "Function": "Sum", "Field": "Price"},
                                   {"Name": "Cheapest", "Function": "Min", "Field": "Price"},
                                   {"Name": "Dearest", "Function": "Max", "Field": "Price"},
                                   {"Name": "AveragePrice", "Function": "Average", "Field": "Price"},
                                   {"Name": "Items", "Function": "Sum", "Field": "Quantity"}]}}
        """);

    private static Dictionary<string, JsonElement> ByKey(QueryResult result) =>
        result.Results.ToDictionary(d => d.Data.GetProperty("Customer").GetString()!, d => d.Data);

    private static decimal Number(JsonElement result, string name) => result.GetProperty(name).GetDecimal();

    [Fact]
    public void Each_order_line_is_an_entry_and_each_customer_a_result()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        _db.Put("orders/1", """{"Customer": "c/1", "Lines": [{"Price": 10.5, "Quantity": 1}, {"Price": 2, "Quantity": 3}]}""", "Order");
        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 7.25, "Quantity": 2}]}""", "Order");
        _db.Put("orders/3", """{"Customer": "c/2", "Lines": [{"Price": 1, "Quantity": 1}]}""", "Order");
        _db.Put("people/1", """{"Customer": "c/1", "Lines": [{"Price": 1000, "Quantity": 1}]}""", "Person");

        var result = _db.Query("Orders/TotalsByCustomer", "*:*");

        Assert.Equal(2, result.TotalResults);
        var c1 = ByKey(result)["c/1"];
        Assert.Equal(3, Number(c1, "Lines"));
        Assert.Equal(19.75m, Number(c1, "Total"));
        Assert.Equal(2m, Number(c1, "Cheapest"));
        Assert.Equal(10.5m, Number(c1, "Dearest"));
        Assert.Equal(19.75m / 3, Number(c1, "AveragePrice"));
        Assert.Equal(6, Number(c1, "Items"));
        Assert.Equal(1m, Number(ByKey(result)["c/2"], "Total"));
    }

    [Fact]
    public void A_document_of_thousands_of_lines_is_reduced_updated_and_recomputed_from_its_entries()
    {
        // Its map entries take well over 32 KB (Lucene's limit for some kinds of values), and removing its dearest
        // line makes the group be recomputed from every entry, read back from the index after a reopen.
        _db.Indexes.PutIndex(TotalsByCustomer);
        static string Order(int lines, int dearest) =>
            "{\"Customer\": \"c/1\", \"Lines\": ["
            + string.Join(", ", Enumerable.Range(0, lines).Select(i => $"{{\"Price\": {(i == 0 ? dearest : i % 100)}, \"Quantity\": 1}}"))
            + "]}";
        _db.Put("orders/1", Order(3_000, 1_000), "Order");
        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 500, "Quantity": 2}]}""", "Order");
        Assert.Equal(1_000m, Number(ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"], "Dearest"));
        _db.Reopen();

        _db.Put("orders/1", Order(2_000, 0), "Order");

        var c1 = ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"];
        Assert.Equal(2_001, Number(c1, "Lines"));
        Assert.Equal(Enumerable.Range(1, 1_999).Sum(i => i % 100) + 500m, Number(c1, "Total"));
        Assert.Equal(500m, Number(c1, "Dearest"));
        Assert.Equal(2_002, Number(c1, "Items"));
    }

    [Fact]
    public void A_document_moving_between_groups_and_the_last_leaving_a_group_are_right()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        _db.Put("orders/1", """{"Customer": "c/1", "Lines": [{"Price": 10, "Quantity": 1}]}""", "Order");
        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 5, "Quantity": 1}]}""", "Order");
        Assert.Equal(15m, Number(ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"], "Total"));

        _db.Put("orders/1", """{"Customer": "c/2", "Lines": [{"Price": 10, "Quantity": 1}]}""", "Order");
        var moved = ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"));
        Assert.Equal(5m, Number(moved["c/1"], "Total"));
        Assert.Equal(5m, Number(moved["c/1"], "Dearest"));
        Assert.Equal(10m, Number(moved["c/2"], "Total"));

        _db.Documents.Delete("orders/2");
        var left = _db.Query("Orders/TotalsByCustomer", "*:*");
        Assert.Equal(["c/2"], ByKey(left).Keys);
        Assert.Equal(0, _db.Query("Orders/TotalsByCustomer", "Customer:\"c/1\"").TotalResults);
    }

    [Fact]
    public void Results_are_filtered_sorted_and_paged_on_keys_and_aggregates()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        for (var i = 0; i < 30; i++)
            _db.Put($"orders/{i}", $$"""{"Customer": "c/{{i % 10}}", "Lines": [{"Price": {{i}}, "Quantity": 1}]}""", "Order");

        var top = _db.Query("Orders/TotalsByCustomer", "Total:[40 TO *]", pageSize: 3, sortBy: ["-Total"]);

        Assert.Equal(6, top.TotalResults); // c/9 57, c/8 54, c/7 51, c/6 48, c/5 45, c/4 42
        Assert.Equal(["c/9", "c/8", "c/7"], top.Results.Select(r => r.Data.GetProperty("Customer").GetString()));
        var second = _db.Query("Orders/TotalsByCustomer", "Total:[40 TO *]", pageSize: 3, sortBy: ["-Total"], start: 3);
        Assert.Equal(["c/6", "c/5", "c/4"], second.Results.Select(r => r.Data.GetProperty("Customer").GetString()));
        Assert.Equal(1, _db.Query("Orders/TotalsByCustomer", "Customer:\"c/3\"").TotalResults);
        Assert.Equal(10, _db.Query("Orders/TotalsByCustomer", "Lines:3").TotalResults);
    }

    [Fact]
    public void A_string_where_a_number_is_summed_is_an_indexing_error_and_the_document_is_left_out()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        _db.Put("orders/1", """{"Customer": "c/1", "Lines": [{"Price": 10, "Quantity": 1}]}""", "Order");
        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 3, "Quantity": 1}, {"Price": "lots", "Quantity": 1}]}""", "Order");
        _db.Put("orders/3", """{"Customer": "c/1", "Lines": [{"Price": 1, "Quantity": 1}]}""", "Order");

        var c1 = ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"];

        Assert.Equal(11m, Number(c1, "Total"));
        Assert.Equal(2, Number(c1, "Lines"));
        var stats = _db.Indexes.GetStatistics("Orders/TotalsByCustomer");
        Assert.Equal(1, stats.ErrorCount);
        Assert.Equal("orders/2", stats.LastError!.DocumentKey);
        Assert.Contains("'lots' is not a number", stats.LastError.Message, StringComparison.Ordinal);

        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 3, "Quantity": 1}]}""", "Order");
        Assert.Equal(14m, Number(ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"], "Total"));
    }

    [Fact]
    public void Results_survive_a_restart_and_a_crash_replays_to_the_same_totals()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        _db.Put("orders/1", """{"Customer": "c/1", "Lines": [{"Price": 10, "Quantity": 1}]}""", "Order");
        _db.Reopen();
        Assert.Equal(10m, Number(ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"], "Total"));

        _db.Put("orders/2", """{"Customer": "c/1", "Lines": [{"Price": 5, "Quantity": 1}]}""", "Order");
        Assert.Equal(15m, Number(ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"], "Total"));
        _db.Crash();
        _db.Open();

        var c1 = ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"))["c/1"];
        Assert.Equal(15m, Number(c1, "Total"));
        Assert.Equal(2, Number(c1, "Lines"));
    }

    [Fact]
    public void Group_keys_of_two_fields_form_one_group_per_distinct_pair()
    {
        _db.Indexes.PutIndex(IndexDefinition.FromJson("""
            {"Name": "Sales", "Fields": [{"Name": "Region", "Path": "Region"}, {"Name": "Year", "Path": "Year", "Sort": "Long"},
                                         {"Name": "Amount", "Path": "Amount", "Sort": "Double"}],
             "Reduce": {"GroupBy": ["Region", "Year"], "Aggregates": [{"Name": "Total", "Function": "Sum", "Field": "Amount"}]}}
            """));
        _db.Put("s/1", """{"Region": "EU", "Year": 2024, "Amount": 1}""");
        _db.Put("s/2", """{"Region": "EU", "Year": 2025, "Amount": 2}""");
        _db.Put("s/3", """{"Region": "EU", "Year": 2025, "Amount": 3}""");
        _db.Put("s/4", """{"Region": "US", "Year": 2025, "Amount": 4}""");

        var result = _db.Query("Sales", "Year:2025", sortBy: ["Region"]);

        Assert.Equal(2, result.TotalResults);
        Assert.Equal(5m, Number(result.Results[0].Data, "Total"));
        Assert.Equal(2025, result.Results[0].Data.GetProperty("Year").GetInt32());
        Assert.Equal(4m, Number(result.Results[1].Data, "Total"));
    }

    [Fact]
    public void A_page_read_again_reuses_unchanged_results_and_reads_a_changed_group_anew()
    {
        _db.Indexes.PutIndex(TotalsByCustomer);
        for (var i = 0; i < 20; i++)
            _db.Put($"orders/{i}", $$"""{"Customer": "c/{{i % 5}}", "Lines": [{"Price": {{i}}, "Quantity": 1}]}""", "Order");
        var first = _db.Query("Orders/TotalsByCustomer", "*:*");
        var again = _db.Query("Orders/TotalsByCustomer", "*:*");
        Assert.Equal(first.Results.Select(r => r.Etag), again.Results.Select(r => r.Etag));
        Assert.Equal(30m, Number(ByKey(again)["c/0"], "Total")); // 0 + 5 + 10 + 15

        _db.Put("orders/5", """{"Customer": "c/0", "Lines": [{"Price": 105, "Quantity": 1}]}""", "Order");
        var changed = ByKey(_db.Query("Orders/TotalsByCustomer", "*:*"));

        Assert.Equal(130m, Number(changed["c/0"], "Total"));
        Assert.Equal(105m, Number(changed["c/0"], "Dearest"));
        Assert.Equal(34m, Number(changed["c/1"], "Total")); // 1 + 6 + 11 + 16, untouched; c/4 has 46
        Assert.Equal(["c/0", "c/4"], _db.Query("Orders/TotalsByCustomer", "*:*", sortBy: ["-Total"], pageSize: 2)
            .Results.Select(r => r.Data.GetProperty("Customer").GetString()));
    }
}
