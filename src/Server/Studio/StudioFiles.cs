using Microsoft.Extensions.FileProviders;

namespace RavenLite.Server.Studio;

/// <summary>
/// Serves the studio (<c>/studio/</c>): plain HTML, CSS and JavaScript embedded in this assembly, so the server needs no
/// files beside it and the page loads nothing from anywhere else. The files hold no data, so they are served before the
/// API key check; every request the page makes carries the key.
/// </summary>
internal static class StudioFiles
{
    /// <summary>Where the studio lives.</summary>
    public const string Path = "/studio";

    // Only this origin, no inline script or style, never framed by another site.
    private const string ContentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    /// <summary>Adds the middleware: <c>/studio</c> redirects to <c>/studio/</c>, which serves <c>index.html</c>.</summary>
    public static void Use(WebApplication app)
    {
        var files = new EmbeddedFileProvider(typeof(StudioFiles).Assembly, "RavenLite.Server.Studio.wwwroot");
        app.Use((context, next) =>
        {
            if (context.Request.Path.Equals(Path, StringComparison.OrdinalIgnoreCase) && HttpMethods.IsGet(context.Request.Method))
            {
                context.Response.Redirect(Path + "/");
                return Task.CompletedTask;
            }
            return next(context);
        });
        app.UseDefaultFiles(new DefaultFilesOptions { RequestPath = Path, FileProvider = files });
        app.UseStaticFiles(new StaticFileOptions
        {
            RequestPath = Path,
            FileProvider = files,
            OnPrepareResponse = prepared =>
            {
                var headers = prepared.Context.Response.Headers;
                headers.CacheControl = "no-cache";
                headers.ContentSecurityPolicy = ContentSecurityPolicy;
                headers.XContentTypeOptions = "nosniff";
                headers["Referrer-Policy"] = "no-referrer";
            },
        });
    }
}
