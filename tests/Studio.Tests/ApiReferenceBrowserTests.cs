using RavenLite.Studio.Tests.Infrastructure;
using static Microsoft.Playwright.Assertions;

namespace RavenLite.Studio.Tests;

/// <summary>The OpenAPI reference page (Scalar, served by the server itself) renders the document in the browser.</summary>
public sealed class ApiReferenceBrowserTests(StudioFixture fixture) : IClassFixture<StudioFixture>
{
    [ChromiumFact]
    public async Task The_reference_page_renders_the_servers_routes_without_the_network()
    {
        await using var studio = await fixture.OpenAsync();
        await studio.Page.GotoAsync("/scalar/v1");
        await Expect(studio.Page.GetByText("Creates or replaces a document.").First).ToBeVisibleAsync(new() { Timeout = 30_000 });
        await Expect(studio.Page.GetByText("Several documents by key, read in one transaction").First).ToBeAttachedAsync();
        await studio.ScreenshotAsync("api-reference");
    }
}
