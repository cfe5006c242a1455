namespace RavenLite.Storage.Postgres;

/// <summary>
/// An ordered cursor that reads a window of entries per round trip: a move inside the window costs nothing, a move
/// past its edge fetches the next window in that direction, twice as large as the last (16 up to 1,024 entries), so
/// a seek for one entry stays cheap and a long scan crosses the network rarely.
/// </summary>
internal sealed class PostgresCursor(PostgresTransaction transaction, int tableId) : IStorageCursor
{
    private const int FirstWindow = 16;
    private const int MaxWindow = 1024;

    private List<PostgresRow> _window = [];
    private int _index = -1;
    private int _size = FirstWindow;
    private bool _windowReachesStart;
    private bool _windowReachesEnd;

    public ReadOnlySpan<byte> Key => Current.Key;

    public ReadOnlySpan<byte> Value => Current.Value;

    private PostgresRow Current => _index >= 0 && _index < _window.Count
        ? _window[_index]
        : throw new InvalidOperationException("The cursor is not on an entry.");

    public bool MoveFirst() => LoadForward(PostgresSchema.First, key: null, reachesStart: true);

    public bool MoveLast() => LoadBackward(PostgresSchema.Last, key: null, reachesEnd: true);

    public bool Seek(ReadOnlySpan<byte> key) => LoadForward(PostgresSchema.AtOrAfter, key.ToArray(), reachesStart: false);

    public bool MoveNext()
    {
        if (_index < 0)
            return MoveFirst();
        if (_index + 1 < _window.Count)
        {
            _index++;
            return true;
        }
        return !_windowReachesEnd && LoadForward(PostgresSchema.After, _window[^1].Key, reachesStart: false);
    }

    public bool MovePrevious()
    {
        if (_index < 0)
            return MoveLast();
        if (_index > 0)
        {
            _index--;
            return true;
        }
        return !_windowReachesStart && LoadBackward(PostgresSchema.Before, _window[0].Key, reachesEnd: false);
    }

    // A step past the window's edge that finds nothing keeps the cursor where it was; a first, last or seek that
    // finds nothing leaves it on no entry.
    private bool LoadForward(string sql, byte[]? key, bool reachesStart)
    {
        var limit = NextSize();
        var rows = transaction.Fetch(sql, tableId, key, limit);
        if (rows.Count == 0)
        {
            if (sql != PostgresSchema.After)
                _index = -1;
            _windowReachesEnd = true;
            return false;
        }
        _window = rows;
        _windowReachesStart = reachesStart;
        _windowReachesEnd = rows.Count < limit;
        _index = 0;
        return true;
    }

    private bool LoadBackward(string sql, byte[]? key, bool reachesEnd)
    {
        var limit = NextSize();
        var rows = transaction.Fetch(sql, tableId, key, limit);
        if (rows.Count == 0)
        {
            if (sql != PostgresSchema.Before)
                _index = -1;
            _windowReachesStart = true;
            return false;
        }
        _windowReachesStart = rows.Count < limit;
        rows.Reverse();
        _window = rows;
        _windowReachesEnd = reachesEnd;
        _index = rows.Count - 1;
        return true;
    }

    private int NextSize()
    {
        var size = _size;
        _size = Math.Min(MaxWindow, _size * 2);
        return size;
    }

    public void Dispose() => _window = [];
}
