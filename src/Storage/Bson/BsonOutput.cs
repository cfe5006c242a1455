using System.Buffers;
using System.Buffers.Binary;

namespace RavenLite.Storage.Bson;

/// <summary>A growing pooled buffer with the BSON primitives.</summary>
internal struct BsonOutput() : IDisposable
{
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(1024);

    public int Position { get; private set; }

    public readonly Span<byte> Written => _buffer.AsSpan(0, Position);

    public Span<byte> Reserve(int size)
    {
        if (_buffer.Length - Position < size)
            Grow(size);
        return _buffer.AsSpan(Position);
    }

    public void Advance(int count) => Position += count;

    /// <summary>Empties the buffer, keeping it for the next document.</summary>
    public void Clear() => Position = 0;

    public void Byte(byte value)
    {
        if (Position == _buffer.Length)
            Grow(1);
        _buffer[Position++] = value;
    }

    public readonly void SetByte(int at, byte value) => _buffer[at] = value;

    public void Bytes(ReadOnlySpan<byte> value)
    {
        if (_buffer.Length - Position < value.Length)
            Grow(value.Length);
        value.CopyTo(_buffer.AsSpan(Position));
        Position += value.Length;
    }

    public void Int32(int value)
    {
        if (_buffer.Length - Position < sizeof(int))
            Grow(sizeof(int));
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(Position), value);
        Position += sizeof(int);
    }

    public void Int64(long value)
    {
        if (_buffer.Length - Position < sizeof(long))
            Grow(sizeof(long));
        BinaryPrimitives.WriteInt64LittleEndian(_buffer.AsSpan(Position), value);
        Position += sizeof(long);
    }

    /// <summary>An array element's name: its index in decimal, NUL-terminated.</summary>
    public void Index(int index)
    {
        if ((uint)index < 10)
        {
            if (_buffer.Length - Position < 2)
                Grow(2);
            _buffer[Position] = (byte)('0' + index);
            _buffer[Position + 1] = 0;
            Position += 2;
            return;
        }
        index.TryFormat(Reserve(12), out var length, default, System.Globalization.CultureInfo.InvariantCulture);
        Position += length;
        Byte(0);
    }

    /// <summary>The length of what was written from <paramref name="at"/> on (a document counts its own length field; a string does not).</summary>
    public readonly void PatchLength(int at, bool exclusive = false) =>
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(at), Position - at - (exclusive ? 4 : 0));

    // Out of line: the writes above stay small enough to inline.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void Grow(int size)
    {
        var larger = ArrayPool<byte>.Shared.Rent(checked(Math.Max(_buffer.Length * 2, Position + size)));
        _buffer.AsSpan(0, Position).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }

    public void Dispose()
    {
        if (_buffer.Length > 0)
            ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
    }
}
