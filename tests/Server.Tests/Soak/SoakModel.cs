namespace RavenLite.Server.Tests.Soak;

/// <summary>
/// What the database must hold after a soak run: each writer owns its own keys, so its acknowledged writes, in
/// order, say exactly what each of its keys holds (a version and a tag) or that it was deleted.
/// </summary>
internal sealed class SoakModel
{
    public static readonly string[] Tags = ["SoakA", "SoakB", "SoakC", "SoakD"];

    private readonly Dictionary<string, (long Version, string Tag)?>[] _writers;

    public SoakModel(int writers)
    {
        _writers = new Dictionary<string, (long, string)?>[writers];
        for (var i = 0; i < writers; i++)
            _writers[i] = new Dictionary<string, (long, string)?>(StringComparer.OrdinalIgnoreCase);
    }

    public static string Key(int writer, int slot) => $"soak/w{writer}/{slot}";

    /// <summary>Records an acknowledged put (only the owning writer calls this, so no lock).</summary>
    public void Put(int writer, string key, long version, string tag) => _writers[writer][key] = (version, tag);

    /// <summary>Records an acknowledged delete.</summary>
    public void Delete(int writer, string key) => _writers[writer][key] = null;

    /// <summary>Every key ever written, with what it must hold now (null: must not exist).</summary>
    public IEnumerable<(string Key, (long Version, string Tag)? Expected)> All() =>
        _writers.SelectMany(w => w.Select(p => (p.Key, p.Value)));

    public int Present => All().Count(e => e.Expected is not null);

    public int CountTag(string tag) => All().Count(e => e.Expected?.Tag == tag);
}
