using RavenLite.Studio.Tests.Infrastructure;
using static Microsoft.Playwright.Assertions;

namespace RavenLite.Studio.Tests;

/// <summary>The studio against a server started with <c>--api-key</c>.</summary>
public sealed class StudioApiKeyTests(ApiKeyStudioFixture fixture) : IClassFixture<ApiKeyStudioFixture>
{
    [ChromiumFact]
    public async Task The_page_asks_for_the_key_then_sends_it_in_X_Api_Key()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("collections");
        await Expect(studio.TestId("error")).ToContainTextAsync("X-Api-Key");
        var key = studio.Page.Locator("#api-key");
        await Expect(key).ToBeVisibleAsync();
        await studio.ScreenshotAsync("api-key");

        await key.FillAsync(ApiKeyStudioFixture.ApiKey);
        await key.PressAsync("Enter");
        await Expect(studio.TestId("collections")).ToContainTextAsync("Item");
        await Expect(key).ToBeHiddenAsync();
        studio.AssertNoScriptErrors();
    }

    [ChromiumFact]
    public async Task The_header_shows_what_the_given_key_may_do()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.GoAsync("collections");
        var key = studio.Page.Locator("#api-key");
        await Expect(key).ToBeVisibleAsync();
        await Expect(studio.TestId("key-scope")).ToBeEmptyAsync(); // nothing claimed before a key is accepted

        await key.FillAsync(ApiKeyStudioFixture.ReadKey);
        await key.PressAsync("Enter");

        await Expect(studio.TestId("key-scope")).ToHaveTextAsync("read key: may read");
        await Expect(studio.TestId("key-scope")).ToHaveAttributeAsync("data-scope", "read");
        await studio.ScreenshotAsync("key-scope-read");
        studio.AssertNoScriptErrors();

        await using var admin = await fixture.OpenAsync();
        await admin.GoAsync("collections");
        await admin.Page.Locator("#api-key").FillAsync(ApiKeyStudioFixture.ApiKey);
        await admin.Page.Locator("#api-key").PressAsync("Enter");
        await Expect(admin.TestId("key-scope")).ToHaveTextAsync("admin key: may do everything (indexes, backups too)");
        admin.AssertNoScriptErrors();
    }
}
