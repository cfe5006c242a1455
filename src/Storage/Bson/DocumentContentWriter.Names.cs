using System.Text;

namespace RavenLite.Storage.Bson;

// Property names. A serializer writes a type's members as the same strings in the same order for every object of it:
// each name is checked and encoded once, the next name is most often the one that followed it last time (found
// without a lookup), and whether the open object has a name already is one bit of its frame.
public sealed partial class DocumentContentWriter
{
    /// <summary>Names per object compared one by one (those without a bit); an object with more gets a hash set.</summary>
    private const int LinearNameChecks = 16;

    /// <summary>How many names <see cref="_knownNames"/> keeps.</summary>
    private const int MaxKnownNames = 1024;

    private readonly Dictionary<string, KnownName> _knownNames = new(StringComparer.Ordinal);
    // The names of the open objects that have no bit, from each frame's NamesStart on.
    private readonly List<string> _names = new(32);
    // Stands before the first name of a document; its name is a string no caller can hold.
    private readonly KnownName _documentStart = new(new string('\0', 1), [], bit: -1);
    // The name written last (null after one that is not kept), whose Next predicts the coming one.
    private KnownName? _previousName;

    /// <inheritdoc />
    public override void WritePropertyName(string name)
    {
        base.WritePropertyName(name);
        if (_declined)
            return;
        var known = _previousName?.Next;
        if (known is null || !ReferenceEquals(known.Name, name))
        {
            known = Find(name);
            if (_previousName is not null)
                _previousName.Next = known;
        }
        _previousName = known;
        if (known is null ? !IsStorable(name) || !IsNewListed(name) : !IsNew(known))
        {
            Decline();
            return;
        }
        _typeAt = _output.Position;
        _output.Byte(0);
        if (known is null)
            _output.Advance(Encoding.UTF8.GetBytes(name, _output.Reserve(Encoding.UTF8.GetMaxByteCount(name.Length))));
        else
            _output.Bytes(known.Utf8);
        _output.Byte(0);
    }

    /// <inheritdoc />
    public override void WritePropertyName(string name, bool escape) => WritePropertyName(name);

    /// <summary>The kept name equal to <paramref name="name"/>, kept now if there is room; null when it is not kept (or cannot be stored).</summary>
    private KnownName? Find(string name)
    {
        if (_knownNames.TryGetValue(name, out var known))
            return known;
        if (_knownNames.Count >= MaxKnownNames || !IsStorable(name))
            return null;
        known = new KnownName(name, Encoding.UTF8.GetBytes(name), _knownNames.Count);
        _knownNames.Add(name, known);
        return known;
    }

    /// <summary>A BSON name is NUL-terminated, and must read back as the same text.</summary>
    private static bool IsStorable(string name) => !name.Contains('\0', StringComparison.Ordinal) && Utf16Text.IsUnicode(name);

    private bool IsNew(KnownName known)
    {
        if (known.Bit == 0)
            return IsNewListed(known.Name);
        if ((_current.SeenNames & known.Bit) != 0)
            return false;
        _current.SeenNames |= known.Bit;
        return true;
    }

    /// <summary>Whether the open object has no name equal to <paramref name="name"/> among those without a bit; records it.</summary>
    private bool IsNewListed(string name)
    {
        if (_current.Names is { } set)
            return set.Add(name);
        for (var i = _current.NamesStart; i < _names.Count; i++)
        {
            if (string.Equals(_names[i], name, StringComparison.Ordinal))
                return false;
        }
        if (_names.Count - _current.NamesStart < LinearNameChecks)
        {
            _names.Add(name);
            return true;
        }
        _current.Names = new HashSet<string>(_names.Skip(_current.NamesStart), StringComparer.Ordinal) { name };
        return true;
    }

    /// <summary>A name checked and encoded once; the first 64 kept get a bit for the duplicate check.</summary>
    private sealed class KnownName(string name, byte[] utf8, int bit)
    {
        public string Name { get; } = name;

        public byte[] Utf8 { get; } = utf8;

        public ulong Bit { get; } = bit is >= 0 and < 64 ? 1UL << bit : 0;

        /// <summary>The name written after this one last time.</summary>
        public KnownName? Next { get; set; }
    }
}
