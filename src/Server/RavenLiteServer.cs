using System.Net;
using System.Runtime.InteropServices;
using Microsoft.Extensions.DependencyInjection.Extensions;
using RavenLite.Database;
using RavenLite.Server.Errors;
using RavenLite.Server.Hosting;
using RavenLite.Server.Routes;
using RavenLite.Server.Security;
using RavenLite.Storage;

namespace RavenLite.Server;

/// <summary>
/// Builds the RavenLite HTTP server: options from configuration and the command line, the database opened
/// (and closed on shutdown), middleware and routes. <see cref="Program"/> runs it; tests start it on port 0.
/// </summary>
internal static class RavenLiteServer
{
    /// <summary>
    /// Builds the server without starting it. <paramref name="configure"/> can adjust the builder (tests add
    /// log sinks); routes may still be added to the result before it starts.
    /// </summary>
    /// <exception cref="ServerStartupException">Bad settings, an unsafe binding, or a database that will not open.</exception>
    public static WebApplication Build(string[] args, Action<WebApplicationBuilder>? configure = null)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            // appsettings.json ships next to the executable, wherever the server is started from.
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Configuration.AddInMemoryCollection(ServerConfiguration.Settings(args));
        configure?.Invoke(builder);

        var options = ServerConfiguration.Load(builder.Configuration);
        var urls = ListenAddresses.Resolve(options);
        var certificate = TlsCertificate.Load(options, urls);
        builder.WebHost.UseUrls(urls);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            if (certificate is not null)
            {
                kestrel.ConfigureHttpsDefaults(https =>
                {
                    https.ServerCertificate = certificate;
                    if (options.Keys.HasCertificates)
                    {
                        // Asked for, never required (API keys still work); any certificate passes the handshake, since
                        // ApiKeyMiddleware admits only the thumbprints the keys file pins, trusting no authority.
                        https.ClientCertificateMode = Microsoft.AspNetCore.Server.Kestrel.Https.ClientCertificateMode.AllowCertificate;
                        https.ClientCertificateValidation = (_, _, _) => true;
                    }
                });
            }
            kestrel.Limits.MaxRequestBodySize = options.MaxRequestBodyBytes;
            // Queries travel in the URL: the request line must fit the longest one the parser takes, URL-encoded (a
            // 100,000-character query is ~300 KB), so an overlong query reaches it and gets a 400 saying why, not
            // Kestrel's bare 414. Still under Kestrel's 1 MB request buffer.
            kestrel.Limits.MaxRequestLineSize = 768 * 1024;
            kestrel.AddServerHeader = false;
        });
        builder.Services.ConfigureHttpJsonOptions(json => json.SerializerOptions.PropertyNamingPolicy = null);
        builder.Services.AddSingleton(options);
        builder.Services.TryAddSingleton(TimeProvider.System);
        // Queries are cancelled as soon as stopping begins; this bounds the wait for anything else still running.
        builder.Services.Configure<HostOptions>(host => host.ShutdownTimeout = TimeSpan.FromSeconds(options.ShutdownTimeout));
        OpenApi.OpenApiEndpoints.AddServices(builder.Services);
        builder.Services.AddSingleton(services =>
        {
            // The database's own messages (an index rebuilt, indexing failing and recovering) go to the server's log.
            var logger = services.GetRequiredService<ILoggerFactory>().CreateLogger("RavenLite.Database");
            options.Database.Log ??= message => ServerLog.DatabaseMessage(logger, message);
            return new DocumentDatabase(options.Database);
        });
        builder.Services.AddSingleton<Backups.BackupJobs>();
        builder.Services.AddSingleton<Changes.ChangesStreams>();
        builder.Services.AddSingleton<FailedAuthentications>();
        builder.Services.AddSingleton<ExpensiveRequests>();
        builder.Services.AddSingleton<Http.LargeBodyGate>();
        Telemetry.AddServices(builder.Services, options);
        builder.Services.AddSingleton(new Indexes.QueryResponseCache(options.QueryCacheMb * 1024 * 1024));

        var app = builder.Build();
        OpenDatabase(app, options);
        UseMiddleware(app, options);
        DocumentRoutes.Map(app);
        PatchRoutes.Map(app);
        ChangesRoutes.Map(app);
        DocumentListRoutes.Map(app);
        BulkRoutes.Map(app);
        BulkInsertRoute.Map(app);
        MultiGetRoutes.Map(app);
        IndexRoutes.Map(app);
        StatusRoutes.Map(app);
        BackupRoutes.Map(app);
        KeyRoutes.Map(app);
        SetOperationRoutes.Map(app);
        OpenApi.OpenApiEndpoints.Map(app);
        Telemetry.Map(app, options);
        return app;
    }

    /// <summary>Opens the database now, so a locked or unreadable folder stops the start, and closes it once the server has stopped.</summary>
    private static void OpenDatabase(WebApplication app, RavenLiteServerOptions options)
    {
        var directory = options.Database.DataDirectory;
        DocumentDatabase database;
        try
        {
            database = app.Services.GetRequiredService<DocumentDatabase>();
        }
        catch (Exception ex) when (DatabaseOpenFailure.Is(ex))
        {
            ((IDisposable)app).Dispose();
            var exitCode = ex is ArgumentException ? ServerStartupException.ConfigurationExitCode : ServerStartupException.StartupExitCode;
            throw new ServerStartupException($"Cannot open the database in {directory}: {ex.Message}", exitCode, ex);
        }
        var logger = app.Logger;
        app.Lifetime.ApplicationStarted.Register(() => ServerLog.Started(logger, options.Database.Engine.ToString(), directory,
            string.Join(", ", app.Urls), options.Keys.Describe()));
        ReloadKeysOnSighup(app, options);
        // In-flight requests have finished (or the shutdown timeout passed) by now; the container disposes it again, harmlessly.
        app.Lifetime.ApplicationStopped.Register(() =>
        {
            database.Dispose();
            ServerLog.DatabaseClosed(logger, directory);
        });
    }

    /// <summary>SIGHUP reads the API keys again (<see cref="KeyRoutes.Reload"/>) instead of ending the process.</summary>
    private static void ReloadKeysOnSighup(WebApplication app, RavenLiteServerOptions options)
    {
        if (OperatingSystem.IsWindows())
            return; // no SIGHUP there: POST /admin/keys/reload does it
        var logger = app.Logger;
        PosixSignalRegistration? registration = null;
        app.Lifetime.ApplicationStarted.Register(() => registration = PosixSignalRegistration.Create(PosixSignal.SIGHUP, signal =>
        {
            signal.Cancel = true;
            try
            {
                KeyRoutes.Reload(options.Keys, logger);
            }
            catch (ArgumentException)
            {
                // Logged; the current keys stay.
            }
        }));
        app.Lifetime.ApplicationStopping.Register(() => registration?.Dispose());
    }

    private static void UseMiddleware(WebApplication app, RavenLiteServerOptions options)
    {
        var logger = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("RavenLite.Server");
        app.Use(next => new RequestActivityMiddleware(next).InvokeAsync);
        app.Use(next => new RequestLoggingMiddleware(next, logger).InvokeAsync);
        app.Use(next => new ErrorHandlingMiddleware(next, logger).InvokeAsync);
        // Statuses the framework sets without a body (unknown route 404, wrong method 405) get problem details too.
        app.UseStatusCodePages(ErrorResponse.WriteForStatusAsync);
        // Before the API key check: a CORS preflight never carries the key.
        var browser = options.Browser;
        app.Use(next => new BrowserGuardMiddleware(next, browser).InvokeAsync);
        Studio.StudioFiles.Use(app);
        var failures = app.Services.GetRequiredService<FailedAuthentications>();
        var time = app.Services.GetRequiredService<TimeProvider>();
        app.Use(next => new ApiKeyMiddleware(next, options.Keys, failures, time).InvokeAsync);
        // After the key check: a request refused for its key is counted there, not here.
        var expensive = app.Services.GetRequiredService<ExpensiveRequests>();
        app.Use(next => context =>
        {
            if (ExpensiveRequests.IsExpensive(context.Request)
                && expensive.Admit(context, context.Connection.RemoteIpAddress ?? IPAddress.None) is { } refusal)
                throw refusal;
            return next(context);
        });
    }
}
