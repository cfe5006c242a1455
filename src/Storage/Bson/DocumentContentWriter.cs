using System.Text;
using Newtonsoft.Json;
using RavenLite.Storage.Documents;

namespace RavenLite.Storage.Bson;

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
    // The open objects and arrays: the innermost in _current, those around it in _enclosing.
    private readonly List<BsonFrame> _enclosing = new(8);
    private readonly DocumentContentBlocks? _blocks;
    private BsonFrame _current;
    private int _depth;
    private BsonOutput _output = new();
    private int _typeAt;
    private bool _declined;
    private bool _complete;

    /// <summary>A writer whose documents each get an array of their own.</summary>
    public DocumentContentWriter()
    {
        _previousName = _documentStart;
    }

    /// <summary>A writer whose documents are copied into <paramref name="blocks"/> (see there for how long they may be read).</summary>
    public DocumentContentWriter(DocumentContentBlocks blocks)
        : this()
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
        _enclosing.Clear();
        _depth = 0;
        _names.Clear();
        _previousName = _documentStart;
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
        if (_names.Count > _current.NamesStart)
            _names.RemoveRange(_current.NamesStart, _names.Count - _current.NamesStart);
        _output.Byte(0);
        _output.PatchLength(_current.LengthAt);
        if (--_depth > 0)
        {
            _current = _enclosing[^1];
            _enclosing.RemoveAt(_enclosing.Count - 1);
        }
        _complete = _depth == 0;
    }

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
        if (_depth == 0)
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
            if (_depth == DocumentContent.MaxDepth)
            {
                Decline();
                return;
            }
            Element(type);
            _enclosing.Add(_current);
        }
        _current = new BsonFrame(_output.Position, type == BsonTypes.Array, _names.Count);
        _depth++;
        _output.Int32(0);
    }

    /// <summary>Starts a value of <paramref name="type"/>: false (and nothing written) when it cannot be, or is declined already.</summary>
    private bool Element(byte type)
    {
        if (_declined)
            return false;
        if (_depth == 0)
        {
            Decline();
            return false;
        }
        if (_current.IsArray)
        {
            _output.Byte(type);
            _output.Index(_current.NextIndex++);
        }
        else
        {
            _output.SetByte(_typeAt, type);
        }
        return true;
    }

    /// <summary>Leaves this document to the JSON text path; the calls still go through the writer's state checks.</summary>
    private void Decline() => _declined = true;
}
