namespace RavenLite.Storage.Postgres;

/// <summary>A (table, key) pair compared by the key's bytes: the index of a write transaction's held puts.</summary>
internal readonly struct PostgresRowKey(int tableId, byte[] key) : IEquatable<PostgresRowKey>
{
    public int TableId { get; } = tableId;

    public byte[] Key { get; } = key;

    public bool Equals(PostgresRowKey other) => TableId == other.TableId && Key.AsSpan().SequenceEqual(other.Key);

    public override bool Equals(object? obj) => obj is PostgresRowKey other && Equals(other);

    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(TableId);
        hash.AddBytes(Key);
        return hash.ToHashCode();
    }
}
