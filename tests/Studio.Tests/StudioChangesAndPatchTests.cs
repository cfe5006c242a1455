using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using RavenLite.Studio.Tests.Infrastructure;
using static Microsoft.Playwright.Assertions;

namespace RavenLite.Studio.Tests;

/// <summary>The studio's changes pane and patch action in headless Chromium against the real server.</summary>
public sealed class StudioChangesAndPatchTests(StudioFixture fixture) : IClassFixture<StudioFixture>
{
    static StudioChangesAndPatchTests() => SetDefaultExpectTimeout(20_000);

    [ChromiumFact]
    public async Task Changes_pane_shows_live_writes_filtered_by_prefix()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("changes");
        await studio.TestId("changes-prefix").FillAsync("live/");
        await studio.TestId("changes-follow").ClickAsync();
        await Expect(studio.TestId("changes-state")).ToHaveTextAsync("live");

        Assert.Equal(HttpStatusCode.Created, (await PutAsync("live/1", """{"a":1}""")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await PutAsync("other/1", """{"a":1}""")).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await PutAsync("live/2", """{"a":2}""")).StatusCode);

        var rows = studio.TestId("changes").Locator("tbody tr[data-kind=put]");
        await Expect(rows).ToHaveCountAsync(2);
        await Expect(rows.First).ToContainTextAsync("live/2");
        await Expect(rows.Last).ToContainTextAsync("live/1");
        await studio.ScreenshotAsync("changes");
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task Patch_action_applies_a_json_patch_and_a_failed_test_writes_nothing()
    {
        Assert.Equal(HttpStatusCode.Created, (await PutAsync("patched/1", """{"Status":"open","Count":1}""")).StatusCode);
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("doc/patched/1");
        await studio.TestId("patch-panel").Locator("summary").ClickAsync();
        await studio.TestId("patch-json").FillAsync("""[{"op":"replace","path":"/Status","value":"paid"},{"op":"increment","path":"/Count","value":2}]""");
        await studio.TestId("apply-patch").ClickAsync();
        await Expect(studio.TestId("notice")).ToContainTextAsync("Patched");
        await Expect(studio.TestId("document-json")).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("\"paid\""));
        var stored = await GetAsync("/docs/patched/1");
        Assert.Equal(("paid", 3), (stored.GetProperty("Status").GetString(), stored.GetProperty("Count").GetInt32()));

        await studio.TestId("patch-panel").Locator("summary").ClickAsync();
        await studio.TestId("patch-json").FillAsync("""[{"op":"replace","path":"/Count","value":0},{"op":"test","path":"/Status","value":"open"}]""");
        await studio.TestId("apply-patch").ClickAsync();
        await Expect(studio.TestId("patch-conflict")).ToContainTextAsync("not equal to the test value");
        Assert.Equal(3, (await GetAsync("/docs/patched/1")).GetProperty("Count").GetInt32());
        await studio.ScreenshotAsync("patch");
        studio.AssertNoScriptErrors();
    }

    private Task<HttpResponseMessage> PutAsync(string key, string json) =>
        fixture.Server.Client.PutAsync("/docs/" + key, new StringContent(json, new MediaTypeHeaderValue("application/json")));

    private async Task<JsonElement> GetAsync(string path)
    {
        var response = await fixture.Server.Client.GetAsync(path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone();
    }
}
