using Lucene.Net.Documents;

namespace RavenLite.Indexing.Extraction;

/// <summary>
/// The Lucene field instances one definition field hands to documents, kept and reused from one document to the next:
/// a new field instance builds its token stream anew (Lucene.Net finds its attributes by reflection, under a lock),
/// while a reused one resets the stream it already has. Values of an array path take one slot each.
/// </summary>
internal sealed class FieldSlots(Func<Field> create)
{
    private readonly List<Field> _fields = [];
    private int _used;

    /// <summary>Makes every slot free again, before the next document.</summary>
    public void Reset() => _used = 0;

    /// <summary>The next free field instance (made on first need); the caller sets its value.</summary>
    public Field Next()
    {
        if (_used == _fields.Count)
            _fields.Add(create());
        return _fields[_used++];
    }
}
