using Microsoft.Playwright;

namespace RavenLite.Studio.Tests.Infrastructure;

/// <summary>A browser page on the studio: script errors are collected, and screenshots go to <see cref="ScreenshotDirectory"/>.</summary>
public sealed class StudioPage : IAsyncDisposable
{
    /// <summary>Overrides where screenshots are saved (CI points it at the run's results).</summary>
    public const string ScreenshotVariable = "RAVENLITE_SCREENSHOT_DIR";

    private readonly IBrowserContext _context;
    private readonly List<string> _errors = [];

    public StudioPage(IBrowserContext context, IPage page)
    {
        _context = context;
        Page = page;
        page.PageError += (_, error) => _errors.Add(error);
        page.Console += (_, message) =>
        {
            // A failed request is logged by the browser; the studio shows those itself, so only script errors count.
            if (message.Type == "error" && !message.Text.StartsWith("Failed to load resource", StringComparison.Ordinal))
                _errors.Add(message.Text);
        };
    }

    public IPage Page { get; }

    /// <summary>TestResults/screenshots beside the test project, unless <see cref="ScreenshotVariable"/> says otherwise.</summary>
    public static string ScreenshotDirectory =>
        Environment.GetEnvironmentVariable(ScreenshotVariable) is { Length: > 0 } configured
            ? configured
            : Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", "..", "TestResults", "screenshots"));

    /// <summary>Opens a studio route (<c>collections</c>, <c>doc/carts/1</c>, ...).</summary>
    public async Task GoAsync(string route)
    {
        await Page.GotoAsync("/studio/#" + route);
    }

    public ILocator TestId(string id) => Page.GetByTestId(id);

    public async Task<string> ScreenshotAsync(string name)
    {
        Directory.CreateDirectory(ScreenshotDirectory);
        var path = Path.Combine(ScreenshotDirectory, name + ".png");
        await Page.ScreenshotAsync(new PageScreenshotOptions { Path = path, FullPage = false });
        return path;
    }

    /// <summary>Fails when the page had a script error.</summary>
    public void AssertNoScriptErrors() => Assert.True(_errors.Count == 0, "Script errors: " + string.Join(" | ", _errors));

    public async ValueTask DisposeAsync() => await _context.DisposeAsync();
}
