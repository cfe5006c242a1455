using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RavenLite.Database;
using RavenLite.Server.Tests.Infrastructure;

namespace RavenLite.Server.Tests.Issues;

/// <summary>
/// Issue 11: a stored document that cannot be read used to surface as an ArgumentException, so the client got a
/// 400 for the server's damage. It is a 500 with a generic message now, and the log says which document.
/// </summary>
public sealed class CorruptDocumentTests
{
    [Fact]
    public async Task A_document_whose_stored_bson_cannot_be_read_gets_500_and_a_log_line_naming_it()
    {
        var logs = new CapturingLoggerProvider();
        await using var server = await TestServer.StartAsync(configure: b => b.Services.AddSingleton<ILoggerProvider>(logs));
        Assert.Equal(HttpStatusCode.Created, (await server.PutAsync("broken/1", """{"foobar":42}""")).StatusCode);
        var database = server.App.Services.GetRequiredService<DocumentDatabase>();
        Damage(database);
        database.ClearCache();

        var message = await JsonAssert.ErrorAsync(await server.Client.GetAsync("/docs/broken/1"), HttpStatusCode.InternalServerError);
        Assert.Contains("unexpected error", message, StringComparison.Ordinal);
        Assert.Contains(logs.Entries, e => e.Level == LogLevel.Error && e.Exception?.Message.Contains("'broken/1'", StringComparison.Ordinal) == true);
        Assert.Equal(HttpStatusCode.OK, (await server.Client.GetAsync("/health")).StatusCode);
    }

    /// <summary>Cuts the stored name "foobar" with a NUL, as the old write path did with such names: the reader then meets an unknown element type.</summary>
    private static void Damage(DocumentDatabase database)
    {
        var engine = database.Documents.Engine;
        var table = engine.OpenTable("documents");
        byte[] name = [0x12, .. "foobar"u8, 0];
        engine.Write(tx =>
        {
            byte[] key, value;
            using (var cursor = tx.OpenCursor(table))
            {
                Assert.True(cursor.MoveFirst());
                key = cursor.Key.ToArray();
                value = cursor.Value.ToArray();
            }
            var at = value.AsSpan().IndexOf(name);
            Assert.True(at > 0, "the stored name was not found");
            value[at + 4] = 0; // "foo\0ar\0"
            tx.Put(table, key, value);
            return 0;
        });
    }
}
