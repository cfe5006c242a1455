using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Issues;

/// <summary>
/// Storage folds keys by lower-casing (<see cref="DocumentKey.Fold(string)"/>), but the session's identity map, its
/// deletes and includes, the entity cache and the changes filter compared keys with
/// <see cref="StringComparer.OrdinalIgnoreCase"/>, which is upper-case based and disagrees: "\u212A-1" (KELVIN SIGN) and
/// "k-1" are one stored document but were two session entities (a lost update, or a spurious concurrency error), and
/// "\u03C2-1" (final sigma) and "\u03C3-1" are two documents but were one entity. Every key comparison now uses
/// <see cref="DocumentKeyComparer"/>.
/// </summary>
public sealed class DocumentKeyIdentityTests
{
    public sealed class Note
    {
        public string? Id { get; set; }

        public string Text { get; set; } = "";
    }

    /// <summary>Pairs on which OrdinalIgnoreCase and the key fold disagree (all of them, with U+00E5/U+00C5, K, Σ... alike).</summary>
    public static TheoryData<string, string, bool> Disagreements => new()
    {
        { "\u212A-1", "k-1", true }, // KELVIN SIGN lowers to k
        { "k-1", "\u212A-1", true },
        { "\u212B-1", "\u00E5-1", true }, // ANGSTROM SIGN lowers to å
        { "\u2126-1", "\u03C9-1", true }, // OHM SIGN lowers to ω
        { "\u1E9E-1", "\u00DF-1", true }, // CAPITAL SHARP S lowers to ß
        { "\u03F4-1", "\u03B8-1", true }, // CAPITAL THETA SYMBOL lowers to θ
        { "\u03C2-1", "\u03C3-1", false }, // final sigma: upper Σ, but lower-casing leaves it
        { "\u03C3-1", "\u03C2-1", false },
        { "\u00B5-1", "\u03BC-1", false }, // MICRO SIGN: upper Μ
        { "\u0345-1", "\u03B9-1", false }, // YPOGEGRAMMENI: upper Ι
        { "\u1FBE-1", "\u03B9-1", false },
        { "\u03D0-1", "\u03B2-1", false }, // beta symbol
        { "\u1C80-1", "\u0432-1", false }, // Cyrillic rounded ve
        { "\u1E9B-1", "\u1E61-1", false }, // long s with dot above
        { "\U00010D50-1", "\U00010D70-1", false }, // Garay: Unicode 16 pairs them, ICU 72 (the table) does not
    };

    [Theory]
    [MemberData(nameof(Disagreements))]
    public async Task The_session_holds_one_entity_per_stored_document(string stored, string loaded, bool same)
    {
        await using var fixture = EmbeddedStoreFixture.Start();
        var note = new Note { Text = "first" };
        using (var session = fixture.Store.OpenSession())
        {
            session.Store(note, stored);
            var found = session.Load<Note>(loaded);
            if (same)
                Assert.Same(note, found);
            else
                Assert.Null(found);
            note.Text = "changed";
            session.SaveChanges();
        }

        using var check = fixture.Store.OpenSession();
        Assert.Equal("changed", check.Load<Note>(stored)?.Text);
        Assert.Equal(same ? "changed" : null, check.Load<Note>(loaded)?.Text);
        Assert.Equal(same ? 1 : 0, fixture.Store.Database!.Get(loaded) is null ? 0 : 1);
    }

    [Theory]
    [MemberData(nameof(Disagreements))]
    public async Task The_session_deletes_the_document_its_key_folds_to(string stored, string deleted, bool same)
    {
        await using var fixture = EmbeddedStoreFixture.Start();
        await fixture.PutRawAsync(stored, """{"Text":"kept"}""", "Notes");
        using (var session = fixture.Store.OpenSession())
        {
            var note = session.Load<Note>(stored)!;
            session.Delete(deleted);
            // The delete of the same document makes the loaded entity's change moot; another document's does not.
            note.Text = "changed";
            session.SaveChanges();
        }

        Assert.Equal(same ? null : "changed",
            fixture.Store.Database!.Get(stored) is { } document ? document.Data.GetProperty("Text").GetString() : null);
    }

    [Fact]
    public void The_changes_filter_matches_keys_and_prefixes_by_the_key_fold()
    {
        var change = new DatabaseChange(ChangeKind.Put, 1, "\u212A\u03A3/1", "Notes");

        Assert.True(new ChangesFilter { Keys = ["k\u03C3/1"] }.Matches(change));
        Assert.True(new ChangesFilter { Prefixes = ["K\u03C3/"] }.Matches(change));
        Assert.False(new ChangesFilter { Keys = ["k\u03C2/1"] }.Matches(change));
        Assert.False(new ChangesFilter { Prefixes = ["k\u03C2"] }.Matches(change));
        Assert.False(new ChangesFilter { Prefixes = ["\u212A\u03A3/1/"] }.Matches(change));
    }

    /// <summary>
    /// Keys over a mix of code points the folds disagree on: the session's identity, storage's lookup and the index's
    /// <c>@key</c> term (which replaces a document's index entry) must each call two keys the same exactly when their
    /// folds are equal.
    /// </summary>
    [Fact]
    public async Task Session_storage_and_index_agree_on_which_keys_are_the_same()
    {
        string[] alphabet =
        [
            "k", "K", "\u212A", "s", "S", "\u017F", "i", "I", "\u0130", "\u0131", "\u00DF", "\u1E9E", "\u03C3", "\u03C2",
            "\u03A3", "\u00B5", "\u03BC", "\u039C", "\u2126", "\u03C9", "\u13A0", "\uAB70", "\U00010D50", "\U00010D70",
            "\U00010400", "\U00010428", "\u01C4", "\u01C5", "\u01C6", "\u1C80", "\u0432", "\u0412", "\u0345", "\u03B9",
        ];
        var random = new Random(43);
        var keys = Enumerable.Range(0, 300)
            .Select(_ => "n/" + string.Concat(Enumerable.Range(0, random.Next(1, 3)).Select(_ => alphabet[random.Next(alphabet.Length)])))
            .Distinct(StringComparer.Ordinal).ToList();
        var groups = keys.GroupBy(DocumentKey.Fold, StringComparer.Ordinal).ToList();
        Assert.InRange(groups.Count, 10, keys.Count - 10); // the mix holds both same and different keys

        await using var fixture = EmbeddedStoreFixture.Start();
        var entities = new Note[keys.Count];
        using (var session = fixture.Store.OpenSession())
        {
            session.MaxNumberOfRequests = keys.Count + 1;
            for (var i = 0; i < keys.Count; i++)
            {
                if (session.Load<Note>(keys[i]) is not { } note)
                    session.Store(note = new Note { Text = keys[i] }, keys[i]);
                entities[i] = note;
            }
            session.SaveChanges();
        }
        // Each document is rewritten under every key of its group, the last one's text staying.
        foreach (var key in keys)
        {
            using var session = fixture.Store.OpenSession();
            session.Store(new Note { Text = key }, key);
            session.SaveChanges();
        }

        var stored = keys.Select(k => fixture.Store.Database!.Get(k)).ToList();
        for (var i = 0; i < keys.Count; i++)
        {
            for (var j = 0; j < keys.Count; j++)
            {
                var same = DocumentKey.Fold(keys[i]) == DocumentKey.Fold(keys[j]);
                Assert.True(same == ReferenceEquals(entities[i], entities[j]), $"Session: '{keys[i]}' and '{keys[j]}'");
                Assert.True(same == (stored[i]!.Etag == stored[j]!.Etag), $"Storage: '{keys[i]}' and '{keys[j]}'");
                Assert.True(same == DocumentKeyComparer.Instance.Equals(keys[i], keys[j]), $"Comparer: '{keys[i]}' and '{keys[j]}'");
            }
        }
        using var query = fixture.Store.OpenSession();
        var indexed = query.Query<Note>().WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Take(1000).ToList();
        Assert.Equal(groups.Select(g => g.Last()).Order(StringComparer.Ordinal), indexed.Select(n => n.Text).Order(StringComparer.Ordinal));
    }
}
