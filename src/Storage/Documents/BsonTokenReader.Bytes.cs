using System.Buffers.Binary;

namespace RavenLite.Storage.Documents;

internal ref partial struct BsonTokenReader
{
    // Each read credits its bytes to the innermost container first, as the old reader did, then reads them;
    // running out of bytes part-way is the end of the old reader's output (EndOfStreamException, caught in Run).

    private byte ReadByte()
    {
        Credit(1);
        return ReadUncredited();
    }

    /// <summary>A byte the old reader read without crediting it to a container (string terminators, name bytes).</summary>
    private byte ReadUncredited()
    {
        if (_cursor >= _bson.Length)
            throw new EndOfStreamException();
        return _bson[_cursor++];
    }

    private int ReadInt32()
    {
        Credit(4);
        return BinaryPrimitives.ReadInt32LittleEndian(Take(4));
    }

    private long ReadInt64()
    {
        Credit(8);
        return BinaryPrimitives.ReadInt64LittleEndian(Take(8));
    }

    private double ReadDouble()
    {
        Credit(8);
        return BinaryPrimitives.ReadDoubleLittleEndian(Take(8));
    }

    /// <summary>Up to <paramref name="count"/> bytes: like the old reader's, a read near the end comes back short.</summary>
    private ReadOnlySpan<byte> ReadBytes(int count)
    {
        Credit(count);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var bytes = _bson.Slice(_cursor, Math.Min(count, _bson.Length - _cursor));
        _cursor += bytes.Length;
        return bytes;
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if (_bson.Length - _cursor < count)
            throw new EndOfStreamException();
        var bytes = _bson.Slice(_cursor, count);
        _cursor += count;
        return bytes;
    }

    /// <summary>Adds to the innermost container's count of bytes read, wrapping on overflow as the old count did.</summary>
    private readonly void Credit(int count) =>
        _containers[^1].Position = unchecked(_containers[^1].Position + count);
}
