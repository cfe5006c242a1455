using System.Buffers;
using System.Buffers.Binary;

namespace RavenLite.Storage.Documents;

/// <summary>A growing pooled buffer with the BSON primitives.</summary>
internal struct BsonOutput() : IDisposable
{
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(1024);

    public int Position { get; private set; }

    public readonly Span<byte> Written => _buffer.AsSpan(0, Position);

    public Span<byte> Reserve(int size)
    {
        if (_buffer.Length - Position < size)
        {
            var larger = ArrayPool<byte>.Shared.Rent(checked(Math.Max(_buffer.Length * 2, Position + size)));
            _buffer.AsSpan(0, Position).CopyTo(larger);
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = larger;
        }
        return _buffer.AsSpan(Position);
    }

    public void Advance(int count) => Position += count;

    /// <summary>Empties the buffer, keeping it for the next document.</summary>
    public void Clear() => Position = 0;

    public void Byte(byte value)
    {
        if (Position == _buffer.Length)
            Reserve(1);
        _buffer[Position++] = value;
    }

    public readonly void SetByte(int at, byte value) => _buffer[at] = value;

    public void Int32(int value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(Reserve(4), value);
        Position += 4;
    }

    public void Int64(long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(Reserve(8), value);
        Position += 8;
    }

    /// <summary>An array element's name: its index in decimal, NUL-terminated.</summary>
    public void Index(int index)
    {
        index.TryFormat(Reserve(12), out var length, default, System.Globalization.CultureInfo.InvariantCulture);
        Position += length;
        Byte(0);
    }

    /// <summary>The length of what was written from <paramref name="at"/> on (a document counts its own length field; a string does not).</summary>
    public readonly void PatchLength(int at, bool exclusive = false) =>
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(at), Position - at - (exclusive ? 4 : 0));

    public void Dispose()
    {
        if (_buffer.Length > 0)
            ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
    }
}
