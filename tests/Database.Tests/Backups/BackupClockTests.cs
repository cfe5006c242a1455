using Microsoft.Extensions.Time.Testing;
using Newtonsoft.Json.Linq;

namespace RavenLite.Database.Tests.Backups;

/// <summary>A backup reads its times from <see cref="DocumentDatabaseOptions.TimeProvider"/>: what it records is what the clock says.</summary>
public sealed class BackupClockTests : IDisposable
{
    private static readonly DateTimeOffset s_start = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);
    private readonly FakeTimeProvider _clock = new(s_start);
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));
    private readonly string _backup = Path.Combine(Path.GetTempPath(), "ravenlite-tests", "backup-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentDatabase _db;

    public BackupClockTests() =>
        _db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir, MapSize = 64L << 20, TimeProvider = _clock });

    public void Dispose()
    {
        _db.Dispose();
        foreach (var folder in new[] { _dir, _backup })
        {
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void The_manifest_and_the_progress_reports_carry_the_database_clock()
    {
        _db.Put("notes/1", new JObject { ["n"] = 1 });
        _clock.Advance(TimeSpan.FromHours(1));
        var reports = new List<BackupProgress>();
        // Each step "takes" two seconds of the fake clock, advanced as it starts.
        var progress = new Reporter(report =>
        {
            reports.Add(report);
            if (!report.Finished)
                _clock.Advance(TimeSpan.FromSeconds(2));
        });

        var manifest = _db.Backup(_backup, progress);

        Assert.Equal(s_start.AddHours(1), manifest.Created);
        Assert.Equal(s_start, _db.Get("notes/1")!.LastModified);
        Assert.Equal(
            [(BackupProgress.DocumentsStep, false, 0), (BackupProgress.DocumentsStep, true, 2),
             (BackupProgress.IndexesStep, false, 2), (BackupProgress.IndexesStep, true, 4),
             (BackupProgress.ManifestStep, false, 4), (BackupProgress.ManifestStep, true, 6)],
            reports.Select(r => (r.Step, r.Finished, (int)r.Elapsed.TotalSeconds)));
    }

    private sealed class Reporter(Action<BackupProgress> report) : IProgress<BackupProgress>
    {
        public void Report(BackupProgress value) => report(value);
    }
}
