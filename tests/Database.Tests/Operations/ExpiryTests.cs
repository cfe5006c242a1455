using Microsoft.Extensions.Time.Testing;
using Newtonsoft.Json.Linq;
using RavenLite.Indexing.Definitions;

namespace RavenLite.Database.Tests.Operations;

public sealed class ExpiryTests : IDisposable
{
    private static readonly DateTimeOffset s_start = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly FakeTimeProvider _time = new(s_start);
    private DocumentDatabase? _db;

    public void Dispose()
    {
        _db?.Dispose();
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    private DocumentDatabase Open(TimeSpan interval) =>
        _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, TimeProvider = _time, ExpiryInterval = interval });

    private static JObject Expiring(DateTimeOffset at) =>
        new() { [MetadataNames.EntityName] = "Session", [MetadataNames.Expires] = at.ToString("O") };

    private static JObject Kept() => new() { [MetadataNames.EntityName] = "Session" };

    private static int Tagged(DocumentDatabase db) => db.Query(BuiltInIndexes.DocumentsByEntityNameName,
        new IndexQuery { Query = "Tag:Session", WaitForNonStaleResults = true, Timeout = TimeSpan.FromMinutes(1) }).Results.Count;

    [Fact]
    public void An_expired_document_is_never_returned_even_before_the_task_runs()
    {
        var db = Open(TimeSpan.Zero);
        db.Put("sessions/1", new JObject { ["n"] = 1 }, Expiring(s_start.AddHours(1)));
        db.Put("sessions/2", new JObject { ["n"] = 2 }, Kept());
        Assert.NotNull(db.Get("sessions/1"));
        Assert.Equal(2, Tagged(db));

        _time.Advance(TimeSpan.FromHours(1));

        Assert.Null(db.Get("sessions/1"));
        Assert.Null(db.GetRaw("sessions/1"));
        Assert.Equal([null, "sessions/2"], db.Get(["sessions/1", "sessions/2"]).Select(d => d?.Key));
        Assert.Equal(["sessions/2"], db.GetDocuments(0, 10).Select(d => d.Key));
        Assert.Equal(1, Tagged(db));
        Assert.Null(db.GetWithIncludes(["sessions/1"], []).Results[0]);
        // Still stored: the task is off, and only it deletes.
        Assert.NotNull(db.Documents.Get("sessions/1"));
        Assert.Equal(2, db.GetStatistics().Documents);
    }

    [Fact]
    public async Task The_expiry_task_deletes_through_the_write_path_so_indexes_and_the_changes_feed_see_it()
    {
        var db = Open(TimeSpan.FromMinutes(1));
        db.Put("sessions/1", new JObject { ["n"] = 1 }, Expiring(s_start.AddMinutes(30)));
        db.Put("sessions/2", new JObject { ["n"] = 2 }, Expiring(s_start.AddHours(5)));
        db.Put("sessions/3", new JObject { ["n"] = 3 }, Kept());
        var etag = db.GetStatistics().LastEtag;

        // Held back so that it cannot purge the tombstone before the feed is read.
        using (db.Indexes.PauseIndexing())
        {
            _time.Advance(TimeSpan.FromMinutes(31));

            Assert.Equal(2, db.GetStatistics().Documents);
            Assert.Null(db.Documents.Get("sessions/1"));
            Assert.NotNull(db.Get("sessions/2"));
            var change = Assert.Single(db.Documents.GetChangesAfterEtag(etag, 10));
            Assert.Equal(ChangeKind.Delete, change.Kind);
            Assert.Equal("sessions/1", change.Key);
        }
        await db.WaitForNonStaleAsync(BuiltInIndexes.DocumentsByEntityNameName, TimeSpan.FromMinutes(1));
        Assert.Equal(2, db.Query(BuiltInIndexes.DocumentsByEntityNameName, new IndexQuery { Query = "Tag:Session", PageSize = 0 }).TotalResults);

        _time.Advance(TimeSpan.FromHours(5));

        Assert.Equal(1, db.GetStatistics().Documents);
        Assert.Null(db.Documents.Get("sessions/2"));
    }

    [Fact]
    public void A_document_rewritten_without_an_expiry_is_not_deleted()
    {
        var db = Open(TimeSpan.Zero);
        db.Put("sessions/1", new JObject { ["n"] = 1 }, Expiring(s_start.AddMinutes(10)));
        Assert.Equal(0, db.DeleteExpired());
        db.Put("sessions/1", new JObject { ["n"] = 2 }, Kept());

        _time.Advance(TimeSpan.FromHours(1));

        Assert.Equal(0, db.DeleteExpired());
        Assert.Equal(2, (int)db.Get("sessions/1")!.ToJObject()["n"]!);
    }

    [Fact]
    public void A_document_rewritten_with_a_later_expiry_expires_then()
    {
        var db = Open(TimeSpan.Zero);
        db.Put("sessions/1", new JObject { ["n"] = 1 }, Expiring(s_start.AddMinutes(10)));
        Assert.Equal(0, db.DeleteExpired());
        db.Put("sessions/1", new JObject { ["n"] = 2 }, Expiring(s_start.AddMinutes(60)));

        _time.Advance(TimeSpan.FromMinutes(30));
        Assert.Equal(0, db.DeleteExpired());
        Assert.NotNull(db.Get("sessions/1"));

        _time.Advance(TimeSpan.FromMinutes(30));
        Assert.Equal(1, db.DeleteExpired());
        Assert.Null(db.Documents.Get("sessions/1"));
    }

    [Fact]
    public void Expiry_is_found_after_a_restart_and_times_without_an_offset_are_utc()
    {
        var db = Open(TimeSpan.Zero);
        db.Put("sessions/1", new JObject { ["n"] = 1 },
            new JObject { [MetadataNames.Expires] = s_start.AddMinutes(5).UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss", System.Globalization.CultureInfo.InvariantCulture) });
        db.Put("sessions/2", new JObject { ["n"] = 2 }, new JObject { [MetadataNames.Expires] = "not a time" });
        db.Dispose();
        db = Open(TimeSpan.Zero);

        _time.Advance(TimeSpan.FromMinutes(5));

        Assert.Null(db.Get("sessions/1"));
        Assert.Equal(1, db.DeleteExpired());
        Assert.NotNull(db.Get("sessions/2"));
    }

    [Fact]
    public void A_negative_interval_is_refused()
    {
        var options = new DocumentDatabaseOptions { DataDirectory = _dir, ExpiryInterval = TimeSpan.FromSeconds(-1) };
        var ex = Assert.Throws<ArgumentOutOfRangeException>(options.Validate);
        Assert.Equal(nameof(DocumentDatabaseOptions.ExpiryInterval), ex.ParamName);
    }
}
