using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests;

public sealed class HostingTests
{
    [Fact]
    public async Task Stopping_the_server_finishes_in_flight_requests_and_closes_the_database()
    {
        var directory = TestServer.NewDataDirectory();
        var entered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var server = await TestServer.StartAsync(dataDirectory: directory, addRoutes: app => app.MapGet("/test/slow", async () =>
        {
            entered.SetResult();
            await release.Task;
            return "done";
        }));
        try
        {
            Assert.Equal(HttpStatusCode.Created, (await server.PutAsync("kept/1", """{"v":1}""")).StatusCode);
            var slow = server.Client.GetStringAsync("/test/slow");
            await entered.Task;
            var stopping = server.App.StopAsync();
            Assert.False(stopping.IsCompleted); // a request is in flight: stopping waits for it
            release.SetResult();
            await stopping;
            Assert.Equal("done", await slow);

            // The folder is released and the write is there.
            using var database = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = directory });
            Assert.Equal(1, database.Get("kept/1")!.Data.GetProperty("v").GetInt32());
        }
        finally
        {
            await server.DisposeAsync();
        }
    }

    [Fact]
    public async Task A_folder_already_open_refuses_to_start_with_a_clear_error()
    {
        await using var first = await TestServer.StartAsync();
        var ex = Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", first.DataDirectory, "--urls", "http://127.0.0.1:0"]));
        Assert.Contains("Cannot open the database", ex.Message, StringComparison.Ordinal);
        Assert.Equal(ServerStartupException.StartupExitCode, ex.ExitCode);
    }

    [Theory]
    [InlineData("--port", "abc", "RavenLite:Port")]
    [InlineData("--port", "70000", "Port (--port)")]
    [InlineData("--engine", "Sqlite", "RavenLite:Engine")]
    [InlineData("--cache-size-mb", "-1", "CacheSizeMb (--cache-size-mb)")]
    [InlineData("--map-size", "1000", "MapSize (--map-size)")]
    public void Bad_settings_refuse_to_start_with_exit_code_2(string option, string value, string expected)
    {
        var ex = Assert.Throws<ServerStartupException>(() => RavenLiteServer.Build(["--data-dir", TestServer.NewDataDirectory(), option, value]));
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
        Assert.Equal(ServerStartupException.ConfigurationExitCode, ex.ExitCode);
    }

    [Fact]
    public async Task Command_line_switches_and_environment_style_settings_bind_to_the_options()
    {
        await using var server = await TestServer.StartAsync(["--urls", "http://127.0.0.1:0", "--cache-size-mb", "0", "--RavenLite:MaxPageSize=700"]);
        var options = server.App.Services.GetRequiredService<RavenLiteServerOptions>();
        Assert.Equal(0, options.Database.CacheSizeMb);
        Assert.Equal(700, options.Database.MaxPageSize);
        Assert.Equal(server.DataDirectory, options.Database.DataDirectory);
        var database = server.App.Services.GetRequiredService<DocumentDatabase>();
        Assert.False(database.Options.CacheEnabled);
    }

    [Fact]
    public void The_default_binding_is_loopback_port_8080()
    {
        var urls = Hosting.ListenAddresses.Resolve(new RavenLiteServerOptions());
        Assert.Equal(["http://127.0.0.1:8080"], urls);
    }

    [Fact]
    public async Task Help_lists_every_switch_the_server_reads_and_each_switch_binds_its_setting()
    {
        using var output = new StringWriter();
        Assert.Equal(0, await RavenLite.Server.Cli.RavenLiteCommand.RunAsync(["serve", "--help"], output, TextWriter.Null));
        var usage = output.ToString();
        foreach (var option in RavenLite.Server.Hosting.ServerConfiguration.Switches)
        {
            Assert.Contains($"{option.Flag} {option.Argument}", usage, StringComparison.Ordinal);
            var kebab = string.Concat(option.Setting!.Select((c, i) => char.IsUpper(c) && i > 0 ? "-" + char.ToLowerInvariant(c) : char.ToLowerInvariant(c).ToString()));
            Assert.StartsWith("--" + kebab.Replace("directory", "dir", StringComparison.Ordinal), option.Flag, StringComparison.Ordinal);
        }
        var settings = RavenLite.Server.Hosting.ServerConfiguration.Settings(["serve", "--port", "9000", "--cache-size-mb=0", "--RavenLite:MaxPageSize=700"]);
        Assert.Equal(
            [KeyValuePair.Create("RavenLite:CacheSizeMb", (string?)"0"), KeyValuePair.Create("RavenLite:Port", (string?)"9000")],
            settings.OrderBy(s => s.Key, StringComparer.Ordinal));
    }

    [Fact]
    public void The_server_runs_the_workstation_GC_compacting_a_fragmented_gen2()
    {
        // The server's memory figures (docs/operations.md, "Size the memory") are measured with these settings.
        using var config = System.Text.Json.JsonDocument.Parse(File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "RavenLite.Server.runtimeconfig.json")));
        var properties = config.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");

        Assert.False(properties.GetProperty("System.GC.Server").GetBoolean());
        Assert.Equal(9, properties.GetProperty("System.GC.ConserveMemory").GetInt32());
    }
}
