using System.Text;
using Newtonsoft.Json;

namespace RavenLite.Storage.Documents;

/// <summary>
/// A Newtonsoft <see cref="JsonWriter"/> that encodes one JSON object straight to BSON as it is written, so that an
/// object serialized into it (<see cref="JsonSerializer.Serialize(JsonWriter, object?)"/>) becomes a
/// <see cref="DocumentContent"/> without JSON text in between. Its BSON is byte for byte what
/// <see cref="DocumentContent.FromJson(ReadOnlySpan{byte})"/> makes of the text a <see cref="JsonTextWriter"/> writes
/// for the same calls. What it cannot mirror exactly (raw JSON, comments, custom or Microsoft date formats, numbers
/// outside a double's range, a name given twice, text that is not Unicode, nesting past
/// <see cref="DocumentContent.MaxDepth"/>, anything but one object) it leaves to that path:
/// <see cref="TakeContent"/> then returns null and the caller writes the JSON text instead, which is judged there.
/// </summary>
/// <remarks>One document at a time; <see cref="TakeContent"/> empties it for the next. After a write threw (the
/// writer is left inside an object, <see cref="JsonWriter.WriteState"/> not <see cref="WriteState.Start"/>), use a new one.</remarks>
public sealed partial class DocumentContentWriter : JsonWriter
{
    /// <summary>Names per object compared one by one; an object with more gets a hash set.</summary>
    private const int LinearNameChecks = 16;

    /// <summary>How many names <see cref="_knownNames"/> keeps.</summary>
    private const int MaxKnownNames = 1024;

    // A type's member names are the same strings for every object of it: checked and encoded once, found by reference.
    private readonly Dictionary<string, byte[]> _knownNames = new(ReferenceEqualityComparer.Instance);
    private readonly List<BsonFrame> _frames = new(8);
    private readonly List<string> _names = new(32);
    private readonly DocumentContentBlocks? _blocks;
    private BsonOutput _output = new();
    private int _typeAt;
    private bool _declined;
    private bool _complete;

    /// <summary>A writer whose documents each get an array of their own.</summary>
    public DocumentContentWriter()
    {
    }

    /// <summary>A writer whose documents are copied into <paramref name="blocks"/> (see there for how long they may be read).</summary>
    public DocumentContentWriter(DocumentContentBlocks blocks)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        _blocks = blocks;
    }

    /// <summary>
    /// The document written since the last call, or null when there is none or it is left to the JSON text path
    /// (see the class); empties the writer either way.
    /// </summary>
    public DocumentContent? TakeContent()
    {
        DocumentContent? content = null;
        if (_complete && !_declined)
            content = _blocks is null ? new DocumentContent(_output.Written.ToArray()) : _blocks.Copy(_output.Written);
        _output.Clear();
        _frames.Clear();
        _names.Clear();
        (_declined, _complete) = (false, false);
        return content;
    }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override void WriteStartObject()
    {
        base.WriteStartObject();
        Open(BsonTypes.Object);
    }

    /// <inheritdoc />
    public override void WriteStartArray()
    {
        base.WriteStartArray();
        Open(BsonTypes.Array);
    }

    /// <inheritdoc />
    protected override void WriteEnd(JsonToken token)
    {
        base.WriteEnd(token);
        if (_declined)
            return;
        var frame = _frames[^1];
        _frames.RemoveAt(_frames.Count - 1);
        _names.RemoveRange(frame.NamesStart, _names.Count - frame.NamesStart);
        _output.Byte(0);
        _output.PatchLength(frame.LengthAt);
        _complete = _frames.Count == 0;
    }

    /// <inheritdoc />
    public override void WritePropertyName(string name)
    {
        base.WritePropertyName(name);
        if (_declined)
            return;
        var known = _knownNames.TryGetValue(name, out var utf8);
        if ((!known && (name.Contains('\0', StringComparison.Ordinal) || !CheckedBsonWriter.IsUnicode(name))) || !IsNewName(name))
        {
            Decline();
            return;
        }
        _typeAt = _output.Position;
        _output.Byte(0);
        if (!known && _knownNames.Count < MaxKnownNames)
            _knownNames[name] = utf8 = Encoding.UTF8.GetBytes(name);
        if (utf8 is null)
        {
            _output.Advance(Encoding.UTF8.GetBytes(name, _output.Reserve(Encoding.UTF8.GetMaxByteCount(name.Length))));
        }
        else
        {
            utf8.CopyTo(_output.Reserve(utf8.Length));
            _output.Advance(utf8.Length);
        }
        _output.Byte(0);
    }

    /// <inheritdoc />
    public override void WritePropertyName(string name, bool escape) => WritePropertyName(name);

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        if (disposing)
            _output.Dispose();
    }

    private void Open(byte type)
    {
        if (_declined)
            return;
        if (_frames.Count == 0)
        {
            if (_complete || type != BsonTypes.Object)
            {
                Decline();
                return;
            }
            _output.Clear();
        }
        else
        {
            if (_frames.Count == DocumentContent.MaxDepth)
            {
                Decline();
                return;
            }
            Element(type);
        }
        _frames.Add(new BsonFrame(_output.Position, type == BsonTypes.Array, _names.Count));
        _output.Int32(0);
    }

    /// <summary>Starts a value of <paramref name="type"/>: false (and nothing written) when it cannot be, or is declined already.</summary>
    private bool Element(byte type)
    {
        if (_declined)
            return false;
        if (_frames.Count == 0)
        {
            Decline();
            return false;
        }
        var frame = _frames[^1];
        if (frame.IsArray)
        {
            _output.Byte(type);
            _output.Index(frame.NextIndex++);
            _frames[^1] = frame;
        }
        else
        {
            _output.SetByte(_typeAt, type);
        }
        return true;
    }

    /// <summary>Leaves this document to the JSON text path; the calls still go through the writer's state checks.</summary>
    private void Decline() => _declined = true;

    private bool IsNewName(string name)
    {
        var frame = _frames[^1];
        if (frame.Names is { } set)
            return set.Add(name);
        for (var i = frame.NamesStart; i < _names.Count; i++)
        {
            if (string.Equals(_names[i], name, StringComparison.Ordinal))
                return false;
        }
        if (_names.Count - frame.NamesStart < LinearNameChecks)
        {
            _names.Add(name);
            return true;
        }
        frame.Names = new HashSet<string>(_names.Skip(frame.NamesStart), StringComparer.Ordinal) { name };
        _frames[^1] = frame;
        return true;
    }
}
