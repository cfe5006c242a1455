using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.Playwright;
using RavenLite.Studio.Tests.Infrastructure;
using static Microsoft.Playwright.Assertions;

namespace RavenLite.Studio.Tests;

/// <summary>The studio in headless Chromium against the real server holding 1,024 seed carts (entity name Item).</summary>
public sealed class StudioBrowserTests(StudioFixture fixture) : IClassFixture<StudioFixture>
{
    static StudioBrowserTests() => SetDefaultExpectTimeout(20_000);

    [ChromiumFact]
    public async Task Collections_lists_entity_names_with_counts_and_pages_through_one()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("collections");
        var row = studio.TestId("collections").Locator("tbody tr", new() { HasText = "Item" });
        await Expect(row).ToContainTextAsync(StudioServer.Carts.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await studio.ScreenshotAsync("collections");

        await row.ClickAsync();
        await Expect(studio.TestId("collection-name")).ToHaveTextAsync("Item");
        await Expect(studio.TestId("page-range")).ToHaveTextAsync($"1–25 of {StudioServer.Carts}");
        await Expect(studio.TestId("documents").Locator("tbody tr")).ToHaveCountAsync(25);
        await studio.TestId("next-page").ClickAsync();
        await Expect(studio.TestId("page-range")).ToHaveTextAsync($"26–50 of {StudioServer.Carts}");
        await studio.ScreenshotAsync("collection");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Seed_cart_opens_with_metadata_and_saves_an_edit_with_its_etag()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("documents");
        await Expect(studio.TestId("documents").Locator("tbody tr")).ToHaveCountAsync(25);
        await studio.GoAsync("doc/carts/7");
        var json = studio.TestId("document-json");
        await Expect(json).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("brimstone"));
        await Expect(studio.TestId("document-computed-metadata")).ToContainTextAsync("\"Raven-Entity-Name\": \"Item\"");
        var etagBefore = long.Parse(await studio.TestId("document-etag").InnerTextAsync(), System.Globalization.CultureInfo.InvariantCulture);
        await studio.ScreenshotAsync("document");

        await json.FillAsync((await json.InputValueAsync()).Replace("\"cartId\": 666", "\"cartId\": 777", StringComparison.Ordinal));
        await studio.TestId("save-document").ClickAsync();
        await Expect(studio.TestId("notice")).ToContainTextAsync("Saved");

        var stored = await GetAsync("/docs/carts/7");
        Assert.Equal(777, stored.GetProperty("cartId").GetInt32());
        Assert.True(long.Parse(await studio.TestId("document-etag").InnerTextAsync(), System.Globalization.CultureInfo.InvariantCulture) > etagBefore);
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Saving_over_a_newer_version_shows_the_conflict_and_writes_nothing()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("doc/carts/8");
        var json = studio.TestId("document-json");
        await Expect(json).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("brimstone"));

        // Someone else writes the document after the studio loaded it.
        using var put = new HttpRequestMessage(HttpMethod.Put, "/docs/carts/8") { Content = Json("""{"cartId":8,"by":"someone else"}""") };
        put.Headers.Add("Raven-Entity-Name", "Item");
        Assert.Equal(HttpStatusCode.Created, (await fixture.Server.Client.SendAsync(put)).StatusCode);

        await json.FillAsync("""{"cartId":8,"by":"the studio"}""");
        await studio.TestId("save-document").ClickAsync();
        await Expect(studio.TestId("error")).ToContainTextAsync("concurrency conflict");
        await Expect(studio.TestId("current-version")).ToContainTextAsync("someone else");
        await studio.ScreenshotAsync("conflict");

        Assert.Equal("someone else", (await GetAsync("/docs/carts/8")).GetProperty("by").GetString());
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task A_document_is_created_and_deleted()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("new");
        await studio.TestId("new-key").FillAsync("notes/studio-1");
        await studio.TestId("new-json").FillAsync("""{"text":"from the studio"}""");
        await studio.TestId("new-metadata").FillAsync("""{"Raven-Entity-Name":"Note"}""");
        await studio.TestId("create-document").ClickAsync();
        await Expect(studio.TestId("document-key")).ToHaveTextAsync("notes/studio-1");
        Assert.Equal("from the studio", (await GetAsync("/docs/notes/studio-1")).GetProperty("text").GetString());

        await studio.TestId("delete-document").ClickAsync();
        await Expect(studio.TestId("confirm-delete")).ToContainTextAsync("Delete document 'notes/studio-1'");
        await studio.TestId("confirm-delete-document").ClickAsync();
        await Expect(studio.TestId("documents")).ToBeVisibleAsync();
        Assert.Equal(HttpStatusCode.NotFound, (await fixture.Server.Client.GetAsync("/docs/notes/studio-1")).StatusCode);
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task A_key_with_dot_segments_deletes_its_document_and_never_another_route()
    {
        // Issue 30: Delete on this document sent DELETE /indexes/Orders/ByCustomer; the index went, the document stayed.
        const string Key = "x/../../indexes/Orders/ByCustomer";
        var client = fixture.Server.Client;
        Assert.Equal(HttpStatusCode.Created, (await client.PutAsync("/indexes/Orders/ByCustomer",
            Json("""{"Fields":[{"Name":"Customer","Path":"customer"}]}"""))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.PostAsync("/bulk_docs",
            Json($$$"""[{"Method":"PUT","Key":"{{{Key}}}","Document":{"customer":"c1","n":1}}]"""))).StatusCode);
        await using var studio = await fixture.OpenAsync();

        await studio.GoAsync("doc/" + Uri.EscapeDataString(Key));
        await Expect(studio.TestId("document-key")).ToHaveTextAsync(Key);
        await studio.TestId("patch-panel").Locator("summary").ClickAsync();
        await studio.TestId("patch-json").FillAsync("""[{"op":"increment","path":"/n","value":1}]""");
        await studio.TestId("apply-patch").ClickAsync();
        await Expect(studio.TestId("notice")).ToContainTextAsync("Patched");
        await studio.TestId("delete-document").ClickAsync();
        await Expect(studio.TestId("confirm-delete")).ToContainTextAsync($"Delete document '{Key}'");
        await studio.TestId("confirm-delete-document").ClickAsync();
        await Expect(studio.TestId("documents")).ToBeVisibleAsync();

        var left = await client.PostAsync("/queries", Json($$"""["{{Key}}"]"""));
        Assert.Equal(JsonValueKind.Null, JsonDocument.Parse(await left.Content.ReadAsStringAsync()).RootElement.GetProperty("Results")[0].ValueKind);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/indexes/Orders/ByCustomer?definition=yes")).StatusCode);
        studio.AssertNoScriptErrors();
        Assert.Equal(HttpStatusCode.NoContent, (await client.DeleteAsync("/indexes/Orders/ByCustomer")).StatusCode);
    }

    [ChromiumFact]
    public async Task The_url_builder_refuses_dot_and_empty_segments_and_encodes_the_rest()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("stats");

        var built = await studio.Page.EvaluateAsync<string[]>("""
            async () => {
              const { pathOf } = await import('/studio/api.js');
              const refused = name => { try { pathOf(name); return 'built'; } catch (e) { return 'refused'; } };
              return [pathOf('Orders/ByCustomer'), pathOf('a b/c?d#e%f'), refused('x/../../indexes/Orders'), refused('./a'), refused('a//b'), refused('a/.')];
            }
            """);

        Assert.Equal(["Orders/ByCustomer", "a%20b/c%3Fd%23e%25f", "refused", "refused", "refused", "refused"], built);
    }

    [ChromiumFact]
    public async Task Query_Tag_Item_with_page_size_1024_reports_the_total()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("query");
        await studio.TestId("query-index").SelectOptionAsync("Raven/DocumentsByEntityName");
        await studio.TestId("query-text").FillAsync("Tag:Item");
        await studio.TestId("query-page-size").FillAsync("1024");
        await studio.TestId("run-query").ClickAsync();

        // Other tests in this class may add or change carts, but never add or remove an Item.
        await Expect(studio.TestId("total-results")).ToHaveTextAsync(StudioServer.Carts.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await Expect(studio.TestId("returned")).ToHaveTextAsync("1024");
        await Expect(studio.TestId("query-results").Locator("tbody tr")).ToHaveCountAsync(1024);
        await Expect(studio.TestId("time-taken")).ToContainTextAsync("ms");
        Assert.Equal(0, await LooseTextNodesAsync(studio, "query-output"));
        await studio.ScreenshotAsync("query");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Query_shows_facets_with_values_as_text()
    {
        // A collection of its own, so the carts other tests count are untouched.
        foreach (var (key, brand) in new[] { ("probes/1", "<img src=x onerror=alert(1)>"), ("probes/2", "<img src=x onerror=alert(1)>"), ("probes/3", "Plain") })
        {
            using var put = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = Json($$"""{"Brand":{{System.Text.Json.JsonSerializer.Serialize(brand)}},"Price":{{key[^1]}}0}""") };
            put.Headers.Add("Raven-Entity-Name", "Probe");
            Assert.Equal(HttpStatusCode.Created, (await fixture.Server.Client.SendAsync(put)).StatusCode);
        }
        // The first collection query makes the auto index the studio then lists.
        Assert.Equal(HttpStatusCode.OK, (await fixture.Server.Client.GetAsync("/indexes/dynamic/Probe?query=Brand:*&facet=Price@dec&waitForNonStaleResults=true")).StatusCode);

        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("query");
        await studio.TestId("query-index").SelectOptionAsync("Auto/Probe/ByBrandAndPrice");
        await studio.TestId("query-page-size").FillAsync("0");
        await studio.TestId("query-facets").FillAsync("Brand; Price@dec([* TO 20},[20 TO *])");
        await studio.TestId("run-query").ClickAsync();

        var tables = studio.TestId("facet-values");
        await Expect(tables).ToHaveCountAsync(2);
        await Expect(tables.Nth(0).Locator("tbody tr").Nth(0)).ToContainTextAsync("<img src=x onerror=alert(1)>2");
        await Expect(tables.Nth(1).Locator("tbody tr")).ToHaveCountAsync(2);
        await Expect(tables.Nth(1).Locator("tbody tr").Nth(1)).ToContainTextAsync("[20 TO *]2");
        Assert.Equal(0, await studio.TestId("facet-results").Locator("img").CountAsync());
        await studio.ScreenshotAsync("query-facets");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Query_of_a_map_reduce_index_shows_one_row_per_group_with_its_aggregates()
    {
        // A collection of its own, so the carts other tests count are untouched.
        foreach (var (key, customer, total) in new[] { ("tallies/1", "ann", 5), ("tallies/2", "ann", 7), ("tallies/3", "<b>bob</b>", 4) })
        {
            using var put = new HttpRequestMessage(HttpMethod.Put, "/docs/" + key) { Content = Json($$"""{"Customer":{{JsonSerializer.Serialize(customer)}},"Total":{{total}}}""") };
            put.Headers.Add("Raven-Entity-Name", "Tally");
            Assert.Equal(HttpStatusCode.Created, (await fixture.Server.Client.SendAsync(put)).StatusCode);
        }
        using (var index = await fixture.Server.Client.PutAsync("/indexes/Tallies/ByCustomer", Json("""
            {"EntityName":"Tally","Fields":[{"Name":"Customer","Path":"Customer"},{"Name":"Total","Path":"Total","Sort":"Double"}],
             "Reduce":{"GroupBy":["Customer"],"Aggregates":[{"Name":"Count","Function":"Count"},{"Name":"Sum","Function":"Sum","Field":"Total"}]}}
            """)))
            Assert.Equal(HttpStatusCode.Created, index.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await fixture.Server.Client.GetAsync("/indexes/Tallies/ByCustomer?waitForNonStaleResults=true")).StatusCode);

        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("indexes");
        await Expect(studio.TestId("indexes").Locator("tbody tr", new() { HasText = "Tallies/ByCustomer" }))
            .ToContainTextAsync("by Customer: Count = Count, Sum = Sum(Total)");
        await studio.GoAsync("query");
        await studio.TestId("query-index").SelectOptionAsync("Tallies/ByCustomer");
        await studio.TestId("query-sort").FillAsync("Customer");
        await studio.TestId("run-query").ClickAsync();

        var results = studio.TestId("query-results");
        await Expect(studio.TestId("total-results")).ToHaveTextAsync("2");
        await Expect(results.Locator("thead th")).ToHaveTextAsync(["Customer", "Count", "Sum"]);
        await Expect(results.Locator("tbody tr")).ToHaveCountAsync(2);
        await Expect(results.Locator("tbody tr").Nth(0).Locator("td")).ToHaveTextAsync(["<b>bob</b>", "1", "4"]);
        await Expect(results.Locator("tbody tr").Nth(1).Locator("td")).ToHaveTextAsync(["ann", "2", "12"]);
        Assert.Equal(0, await results.Locator("b").CountAsync());
        Assert.Equal(0, await LooseTextNodesAsync(studio, "query-output"));
        await studio.ScreenshotAsync("query-map-reduce");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Query_pages_on_by_continuation()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("query");
        await studio.TestId("query-text").FillAsync("Tag:Item");
        await studio.TestId("query-page-size").FillAsync("1000");
        await studio.TestId("run-query").ClickAsync();
        await Expect(studio.TestId("returned")).ToHaveTextAsync("1000");
        await studio.TestId("query-next").ClickAsync();
        await Expect(studio.TestId("returned")).ToHaveTextAsync("24");
        await Expect(studio.TestId("query-next")).ToBeDisabledAsync();
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task A_bad_query_shows_the_servers_error()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("query");
        await studio.TestId("query-text").FillAsync("Tag:\"Item");
        await studio.TestId("run-query").ClickAsync();
        await Expect(studio.TestId("query-error")).ToContainTextAsync("Cannot parse query");
        await studio.ScreenshotAsync("query-error");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task An_index_is_created_with_validation_errors_shown_then_deleted()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("indexes");
        await Expect(studio.TestId("indexes")).ToContainTextAsync("Raven/DocumentsByEntityName");
        await studio.ScreenshotAsync("indexes");

        await studio.TestId("new-index").ClickAsync();
        await studio.TestId("index-name").FillAsync("Carts/ByProduct");
        await studio.TestId("index-definition").FillAsync("""{"EntityName":"Item","Fields":[{"Name":"ProductId","Path":"itemList[0].productId"}]}""");
        await studio.TestId("save-index").ClickAsync();
        await Expect(studio.TestId("index-error")).ToContainTextAsync("[0]");
        await studio.ScreenshotAsync("index-error");
        Assert.Equal(HttpStatusCode.NotFound, (await fixture.Server.Client.GetAsync("/indexes/Carts/ByProduct?definition=yes")).StatusCode);

        await studio.TestId("index-definition").FillAsync("""{"EntityName":"Item","Fields":[{"Name":"ProductId","Path":"itemList[].productId"}]}""");
        await studio.TestId("save-index").ClickAsync();
        await Expect(studio.TestId("delete-index")).ToBeVisibleAsync();
        Assert.Equal("Carts/ByProduct", (await GetAsync("/indexes/Carts/ByProduct?definition=yes")).GetProperty("Name").GetString());
        await studio.ScreenshotAsync("index");

        await studio.TestId("delete-index").ClickAsync();
        await Expect(studio.TestId("confirm-delete")).ToContainTextAsync("Delete index 'Carts/ByProduct'");
        await studio.TestId("confirm-delete-index").ClickAsync();
        await Expect(studio.TestId("indexes")).ToBeVisibleAsync();
        await Expect(studio.TestId("indexes")).Not.ToContainTextAsync("Carts/ByProduct");
        Assert.Equal(HttpStatusCode.NotFound, (await fixture.Server.Client.GetAsync("/indexes/Carts/ByProduct?definition=yes")).StatusCode);
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Back_up_now_runs_a_backup_and_lists_it_with_its_documents()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("backups");
        await Expect(studio.TestId("backups")).ToBeVisibleAsync();

        await studio.TestId("start-backup").ClickAsync();

        await Expect(studio.TestId("backups")).ToContainTextAsync("Succeeded", new() { Timeout = 60_000 });
        var listed = await GetAsync("/admin/backups");
        var backup = listed.EnumerateArray().First();
        Assert.Equal("Succeeded", backup.GetProperty("State").GetString());
        await Expect(studio.TestId("backups")).ToContainTextAsync(backup.GetProperty("Id").GetString()!);
        await studio.ScreenshotAsync("backups");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Stats_show_document_counts_and_cache_counters()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("stats");
        var expected = fixture.Server.Database.GetStatistics();
        await Expect(studio.TestId("stats-by-entity")).ToContainTextAsync("Item");
        await Expect(studio.TestId("cache-enabled")).ToHaveTextAsync("true");
        await Expect(studio.TestId("cache-hit-ratio")).ToContainTextAsync("%");
        Assert.True(int.Parse(await studio.TestId("stat-documents").InnerTextAsync(), System.Globalization.CultureInfo.InvariantCulture) >= expected.Documents - 1);
        await studio.ScreenshotAsync("stats");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task The_first_paint_says_it_is_loading_and_no_view_shows_a_stray_null_or_undefined()
    {
        await using var studio = await fixture.OpenAsync();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        // /stats is held back until the first paint has been checked, so the check sees the page before any data.
        await studio.Page.RouteAsync("**/stats", async route =>
        {
            await release.Task;
            await route.ContinueAsync();
        });
        await studio.GoAsync("collections");

        await Expect(studio.TestId("loading")).ToHaveTextAsync("Loading…");
        await Expect(studio.Page.Locator("header h1")).ToContainTextAsync("RavenLite");
        await studio.ScreenshotAsync("first-paint");
        release.SetResult();
        await Expect(studio.TestId("collections")).ToContainTextAsync("Item");
        await Expect(studio.TestId("loading")).ToHaveCountAsync(0);
        await Expect(studio.TestId("key-scope")).ToHaveTextAsync("no key needed (loopback): may do everything");

        foreach (var (route, ready) in new[] { ("collections", "collections"), ("collection/Item", "documents"), ("documents", "documents"),
            ("stats", "stat-documents"), ("indexes", "new-index") })
        {
            await studio.GoAsync(route);
            await Expect(studio.TestId(ready)).ToBeVisibleAsync();
            await Expect(studio.Page.Locator("body[data-ready=true]")).ToHaveCountAsync(1);
            var text = await studio.Page.Locator("#view").InnerTextAsync();
            Assert.False(System.Text.RegularExpressions.Regex.IsMatch(text, @"\b(null|undefined|NaN)\b"), $"#{route} shows: {text}");
        }
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task A_scored_query_shows_scores_and_highlights_with_the_documents_markup_as_text()
    {
        var client = fixture.Server.Client;
        Assert.Equal(HttpStatusCode.Created, (await client.PutAsync("/indexes/Studio/Search",
            Json("""{"Fields":[{"Name":"Body","Path":"body","Analysis":"FullText"}]}"""))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.PostAsync("/bulk_docs", Json("""
            [{"Method":"PUT","Key":"notes/xss","Document":{"body":"<img src=x onerror=\"window.hacked=1\"> tomato <b>bold</b>"}},
             {"Method":"PUT","Key":"notes/plain","Document":{"body":"tomato soup with tomato"}}]
            """))).StatusCode);
        await GetAsync("/indexes/Studio/Search?waitForNonStaleResults=true&pageSize=0");
        await using var studio = await fixture.OpenAsync();

        await studio.GoAsync("query");
        await studio.TestId("query-index").SelectOptionAsync("Studio/Search");
        await studio.TestId("query-text").FillAsync("Body:tomato");
        await studio.TestId("query-by-score").CheckAsync();
        await studio.TestId("query-highlight").FillAsync("Body");
        await studio.TestId("run-query").ClickAsync();

        var rows = studio.TestId("query-results").Locator("tbody tr");
        await Expect(rows).ToHaveCountAsync(2);
        // Two matches of tomato in a short body outscore one.
        await Expect(rows.Nth(0)).ToContainTextAsync("notes/plain");
        var xss = rows.Nth(1).GetByTestId("query-highlights");
        await Expect(xss).ToContainTextAsync("<img src=x onerror=\"window.hacked=1\"> tomato <b>bold</b>");
        await Expect(xss.Locator("mark")).ToHaveTextAsync("tomato");
        await Expect(xss.Locator("img")).ToHaveCountAsync(0);
        await Expect(rows.Nth(0).GetByTestId("query-highlights").Locator("mark")).ToHaveCountAsync(2);
        Assert.Equal("undefined", await studio.Page.EvaluateAsync<string>("() => typeof window.hacked"));
        await studio.ScreenshotAsync("query-highlights");
        studio.AssertNoScriptErrors();
        Assert.Equal(HttpStatusCode.NoContent, (await client.DeleteAsync("/indexes/Studio/Search")).StatusCode);
    }

    private async Task<JsonElement> GetAsync(string path)
    {
        var response = await fixture.Server.Client.GetAsync(path);
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"GET {path}: {(int)response.StatusCode} {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    /// <summary>Text nodes straight under an element: an optional part written as "null" or "false" would be one.</summary>
    private static Task<int> LooseTextNodesAsync(StudioPage studio, string testId) =>
        studio.TestId(testId).EvaluateAsync<int>("element => [...element.childNodes].filter(node => node.nodeType === Node.TEXT_NODE).length");

    private static StringContent Json(string json) => new(json, new MediaTypeHeaderValue("application/json"));
}
