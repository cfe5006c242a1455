using System.Text.Json;
using Newtonsoft.Json;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Reads BSON token by token exactly as Newtonsoft's <c>BsonDataReader</c> did when documents were read through
/// it, and writes each token as the old path did, so that anything <see cref="BsonJsonTranscoder"/> hands over
/// comes out unchanged: types writes never produce (DBPointer, code with scope), lengths that disagree, names
/// the old reader mangled, truncation (where it stopped quietly) and damage (where it threw). It keeps the old
/// reader's bookkeeping: each container's declared length and the bytes credited to it, the JSON containers
/// open, and its state. Slow, and only used for such input.
/// </summary>
internal ref partial struct BsonTokenReader
{
    /// <summary>The old reader's nesting limit, as the read path configured it.</summary>
    private const int MaxJsonDepth = Document.MaxReadDepth;

    private readonly ReadOnlySpan<byte> _bson;
    private readonly Utf8JsonWriter _writer;
    private readonly List<Container> _containers = [];
    private readonly List<bool> _open = []; // JSON containers open, true for an array
    private int _cursor;
    private Mode _mode;
    private State _state;
    private byte _elementType;
    private int _objectsEnded;
    private int _tokens;

    private BsonTokenReader(ReadOnlySpan<byte> bson, Utf8JsonWriter writer)
    {
        _bson = bson;
        _writer = writer;
    }

    /// <summary>The old reader's own states, for BSON types that become several JSON tokens.</summary>
    private enum Mode { Normal, ReferenceStart, ReferenceRef, ReferenceId, CodeStart, Code, Scope, ScopeObject, ScopeEnd }

    /// <summary>The states of the old reader's JSON side (Newtonsoft's JsonReader) that reading depends on.</summary>
    private enum State { Start, Property, ObjectStart, ArrayStart, PostValue, Finished }

    /// <summary>Reads and writes a whole document.</summary>
    /// <returns>How many tokens were written.</returns>
    public static int ReadAll(ReadOnlySpan<byte> bson, Utf8JsonWriter writer) => new BsonTokenReader(bson, writer).Run();

    /// <summary>
    /// Carries on where <see cref="BsonJsonTranscoder"/> stopped: at <paramref name="cursor"/>, which is the start of
    /// an element or a container's end, inside the containers in <paramref name="frames"/> (outermost first).
    /// </summary>
    /// <returns>How many tokens were written in all.</returns>
    public static int Resume(ReadOnlySpan<byte> bson, Utf8JsonWriter writer, ReadOnlySpan<BsonJsonTranscoder.Frame> frames,
        int cursor, int tokens, bool justOpened)
    {
        var reader = new BsonTokenReader(bson, writer) { _cursor = cursor, _tokens = tokens };
        for (var i = 0; i < frames.Length; i++)
        {
            // A container is credited with its own bytes only; a child's are added when the child ends.
            var reached = i + 1 < frames.Length ? frames[i + 1].Start : cursor;
            reader._containers.Add(new Container(frames[i].IsArray)
            {
                Length = frames[i].End - frames[i].Start,
                Position = reached - frames[i].Start,
            });
            reader._open.Add(frames[i].IsArray);
        }
        var isArray = frames[^1].IsArray;
        reader._state = !justOpened ? State.PostValue : isArray ? State.ArrayStart : State.ObjectStart;
        return reader.Run();
    }

    private int Run()
    {
        try
        {
            while (Read())
                _tokens++;
        }
        catch (EndOfStreamException)
        {
            // Running out of bytes ended the old reader's output quietly, keeping what it had written.
        }
        return _tokens;
    }

    /// <summary>Reads and writes one token; false once the old reader had nothing more to give.</summary>
    private bool Read() => _mode switch
    {
        Mode.Normal => ReadNormal(),
        Mode.ReferenceStart or Mode.ReferenceRef or Mode.ReferenceId => ReadReference(),
        _ => ReadCodeWithScope(),
    };

    private bool ReadNormal()
    {
        switch (_state)
        {
            case State.Start:
                StartContainer(isArray: false);
                return true;
            case State.Property:
                ReadValue(_elementType);
                return true;
            case State.ObjectStart or State.ArrayStart or State.PostValue:
                if (_containers.Count == 0)
                    return false;
                var container = _containers[^1];
                var endAt = unchecked(container.Length - 1);
                if (container.Position < endAt)
                {
                    _elementType = ReadByte();
                    var name = ReadCString();
                    if (container.IsArray)
                        ReadValue(_elementType);
                    else
                        Property(name);
                    return true;
                }
                if (container.Position > endAt)
                    throw new JsonReaderException("Read past end of current container context.");
                if (ReadByte() != 0)
                    throw new JsonReaderException("Unexpected end of object byte value.");
                _containers.RemoveAt(_containers.Count - 1);
                if (_containers.Count > 0)
                    _containers[^1].Position = unchecked(_containers[^1].Position + container.Length);

                EndContainer(container.IsArray);
                return true;
            default:
                return false;
        }
    }

    /// <summary>A BSON document or array being read: its declared length and the bytes credited to it so far.</summary>
    private sealed class Container(bool isArray)
    {
        public bool IsArray { get; } = isArray;

        public int Length { get; set; }

        public int Position { get; set; }
    }
}
