using Microsoft.Playwright;

namespace RavenLite.Studio.Tests.Infrastructure;

/// <summary>
/// One server with seed carts and one headless Chromium per test class. Nothing is started when Chromium is missing:
/// the tests are skipped then (<see cref="ChromiumFactAttribute"/>).
/// </summary>
public class StudioFixture : IAsyncLifetime
{
    private IPlaywright? _playwright;
    private IBrowser? _browser;
    private StudioServer? _server;

    public StudioServer Server => _server ?? throw new InvalidOperationException("Chromium is not installed, so nothing was started.");

    public IBrowser Browser => _browser ?? throw new InvalidOperationException("Chromium is not installed, so nothing was started.");

    /// <summary>Arguments for the server beyond the data folder and address.</summary>
    protected virtual string[] ServerArguments => [];

    public async Task InitializeAsync()
    {
        if (Chromium.ExecutablePath is not { } executable)
            return;
        _server = await StudioServer.StartAsync(ServerArguments);
        _playwright = await Playwright.CreateAsync();
        // Playwright gives every launch a fresh, temporary --user-data-dir of its own (and refuses one in Args).
        _browser = await _playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = executable,
            Headless = true,
            Args = Chromium.LaunchArguments,
        });
    }

    /// <summary>A new page (its own context, so no state leaks between tests) that fails the test on any script error.</summary>
    public async Task<StudioPage> OpenAsync()
    {
        var context = await Browser.NewContextAsync(new BrowserNewContextOptions { BaseURL = Server.Address.ToString(), ViewportSize = new() { Width = 1280, Height = 860 } });
        var page = await context.NewPageAsync();
        return new StudioPage(context, page);
    }

    public async Task DisposeAsync()
    {
        if (_browser is not null)
            await _browser.DisposeAsync();
        _playwright?.Dispose();
        if (_server is not null)
            await _server.DisposeAsync();
    }
}

/// <summary>The studio fixture over a server started with an API key.</summary>
public sealed class ApiKeyStudioFixture : StudioFixture
{
    public const string ApiKey = "studio-test-key-0123456789";

    /// <summary>A key with the read scope only.</summary>
    public const string ReadKey = "studio-test-read-key-0123456789";

    protected override string[] ServerArguments => ["--api-key", ApiKey, "--RavenLite:ApiKeys:0:Key=" + ReadKey, "--RavenLite:ApiKeys:0:Scope=Read"];
}
