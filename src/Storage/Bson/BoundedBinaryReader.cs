namespace RavenLite.Storage.Bson;

/// <summary>
/// Gives <c>BsonDataReader</c> the bytes it asks for, but answers a request the input cannot satisfy without first
/// allocating for it: a binary's bytes come back short at once (as they would after allocating the full declared
/// length), and a string longer than what is left fails as running out of input at once (as it would after sizing
/// a buffer by its declared length, up to 4 GB). Damaged BSON therefore costs no more memory than its own bytes.
/// </summary>
internal sealed class BoundedBinaryReader(Stream stream) : BinaryReader(stream)
{
    private long _unbacked; // how far the last int32 read, taken as a string's length, runs past the input

    public override int ReadInt32()
    {
        var value = base.ReadInt32();
        _unbacked = unchecked(value - 1) - (BaseStream.Length - BaseStream.Position);
        return value;
    }

    public override byte[] ReadBytes(int count) =>
        base.ReadBytes(count < 0 ? count : (int)Math.Min(count, BaseStream.Length - BaseStream.Position));

    // BsonDataReader reads through here only for length-prefixed strings, right after reading their length.
    public override int Read(byte[] buffer, int index, int count) =>
        count > 0 && _unbacked > 0 ? throw new EndOfStreamException() : base.Read(buffer, index, count);
}
