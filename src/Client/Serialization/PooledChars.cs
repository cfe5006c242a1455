using System.Buffers;
using System.Text;
using Newtonsoft.Json;

namespace RavenLite.Client.Serialization;

/// <summary>
/// Newtonsoft reads text, not UTF-8: this decodes a document's UTF-8 JSON once into a pooled char array and reads
/// from it, so a load allocates the entity and nothing else of its own (no stream, no reader buffers).
/// </summary>
internal sealed class PooledCharReader : TextReader
{
    private char[] _chars;
    private readonly int _length;
    private int _position;

    public PooledCharReader(ReadOnlySpan<byte> utf8)
    {
        _chars = ArrayPool<char>.Shared.Rent(Math.Max(utf8.Length, 1)); // UTF-8 never has more chars than bytes
        _length = Encoding.UTF8.GetChars(utf8, _chars);
    }

    public override int Peek() => _position < _length ? _chars[_position] : -1;

    public override int Read() => _position < _length ? _chars[_position++] : -1;

    public override int Read(char[] buffer, int index, int count) => Read(buffer.AsSpan(index, count));

    public override int Read(Span<char> buffer)
    {
        var count = Math.Min(buffer.Length, _length - _position);
        _chars.AsSpan(_position, count).CopyTo(buffer);
        _position += count;
        return count;
    }

    protected override void Dispose(bool disposing)
    {
        var chars = Interlocked.Exchange(ref _chars, []);
        if (chars.Length > 0)
            ArrayPool<char>.Shared.Return(chars);
        base.Dispose(disposing);
    }
}

/// <summary>Newtonsoft's readers and writers take their char buffers from the shared pool instead of allocating them.</summary>
internal sealed class PooledJsonChars : IArrayPool<char>
{
    public static readonly PooledJsonChars Instance = new();

    public char[] Rent(int minimumLength) => ArrayPool<char>.Shared.Rent(minimumLength);

    public void Return(char[]? array)
    {
        if (array is not null)
            ArrayPool<char>.Shared.Return(array);
    }
}
