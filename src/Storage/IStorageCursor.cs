namespace RavenLite.Storage;

/// <summary>
/// An ordered cursor over a table. Each move returns false when there is no entry there; otherwise
/// <see cref="Key"/> and <see cref="Value"/> describe the entry, valid until the next move.
/// </summary>
public interface IStorageCursor : IDisposable
{
    /// <summary>The current entry's key.</summary>
    ReadOnlySpan<byte> Key { get; }

    /// <summary>The current entry's value.</summary>
    ReadOnlySpan<byte> Value { get; }

    /// <summary>Moves to the first entry.</summary>
    bool MoveFirst();

    /// <summary>Moves to the last entry.</summary>
    bool MoveLast();

    /// <summary>Moves to the first entry whose key is greater than or equal to <paramref name="key"/>.</summary>
    bool Seek(ReadOnlySpan<byte> key);

    /// <summary>Moves to the next entry.</summary>
    bool MoveNext();

    /// <summary>Moves to the previous entry.</summary>
    bool MovePrevious();
}
