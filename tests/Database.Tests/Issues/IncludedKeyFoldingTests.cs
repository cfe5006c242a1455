using Newtonsoft.Json.Linq;

namespace RavenLite.Database.Tests.Issues;

/// <summary>
/// Includes gathered the referenced keys in an <see cref="StringComparer.OrdinalIgnoreCase"/> set while storage folds
/// keys by lower-casing: two references to one document ("\u212A-2", Kelvin sign, and "k-2") included it twice, a
/// reference equal to a result's key under the fold ("\u212A-1" from "k-1") included the result again, and two
/// documents that only OrdinalIgnoreCase calls equal ("\u03C2-3" and "\u03C3-3") included only one. The set now uses
/// <see cref="DocumentKeyComparer"/>.
/// </summary>
public sealed class IncludedKeyFoldingTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "ravenlite-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_dir))
            Directory.Delete(_dir, recursive: true);
    }

    [Fact]
    public void Each_referenced_document_is_included_once_by_the_key_fold()
    {
        using var db = new DocumentDatabase(new DocumentDatabaseOptions { DataDirectory = _dir });
        db.Put("k-1", new JObject { ["Refs"] = new JArray("\u212A-2", "k-2", "\u212A-1", "\u03C2-3", "\u03C3-3") });
        db.Put("k-2", new JObject());
        db.Put("\u03C2-3", new JObject());
        db.Put("\u03C3-3", new JObject());

        var result = db.GetWithIncludes(["k-1"], ["Refs[]"]);

        Assert.Equal(["k-2", "\u03C2-3", "\u03C3-3"], result.Includes.Select(d => d.Key).Order(StringComparer.Ordinal));
    }
}
