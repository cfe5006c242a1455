using System.Text;

namespace RavenLite.Storage.Documents;

internal ref partial struct BsonTokenReader
{
    // The old reader decoded UTF-8 through a 128-byte buffer, carrying an incomplete character over to the
    // next chunk. For valid UTF-8 that equals decoding whole, except in names (C strings), where it carried
    // the wrong number of bytes and so dropped or mangled characters of names of 254 bytes or more. Invalid
    // UTF-8 fares differently chunk by chunk too. These methods reproduce both.
    private const int ChunkBytes = 128;

    /// <summary>A string with a length prefix (which counts its terminator, whose value was never checked).</summary>
    private string ReadLengthString()
    {
        var length = ReadInt32();
        Credit(length);
        var textLength = unchecked(length - 1);
        ArgumentOutOfRangeException.ThrowIfNegative(textLength, "count");
        if (_bson.Length - _cursor < textLength)
            throw new EndOfStreamException();
        var text = DecodeInChunks(_bson.Slice(_cursor, textLength));
        _cursor += textLength;
        ReadUncredited();
        return text;
    }

    private static string DecodeInChunks(ReadOnlySpan<byte> text)
    {
        if (text.Length <= ChunkBytes)
            return Encoding.UTF8.GetString(text);
        Span<byte> chunk = stackalloc byte[ChunkBytes];
        var result = new StringBuilder(text.Length);
        var carried = 0;
        var read = 0;
        while (read < text.Length)
        {
            var take = Math.Min(text.Length - read, ChunkBytes - carried);
            if (take == 0)
                throw new EndOfStreamException(); // a chunk with no complete character: the old reader asked for 0 bytes and took that for the end
            text.Slice(read, take).CopyTo(chunk[carried..]);
            read += take;
            var filled = carried + take;
            var complete = LastCompleteIndex(chunk, filled - 1) + 1;
            result.Append(Encoding.UTF8.GetString(chunk[..complete]));
            carried = filled - complete;
            chunk.Slice(complete, carried).CopyTo(chunk);
        }
        return result.ToString();
    }

    /// <summary>A zero-terminated string (an element name or a regular expression's part).</summary>
    private string ReadCString()
    {
        Span<byte> chunk = stackalloc byte[ChunkBytes];
        StringBuilder? result = null;
        var carried = 0;
        var total = 0;
        while (true)
        {
            var filled = carried;
            for (byte b; filled < ChunkBytes && (b = ReadUncredited()) != 0;)
                chunk[filled++] = b;
            var fresh = filled - carried;
            total += fresh;
            if (filled < ChunkBytes && result is null)
            {
                Credit(total + 1);
                return Encoding.UTF8.GetString(chunk[..filled]);
            }
            var complete = LastCompleteIndex(chunk, filled - 1) + 1;
            (result ??= new StringBuilder()).Append(Encoding.UTF8.GetString(chunk[..complete]));
            // The old reader measured the incomplete tail against the bytes read this round, not the bytes in
            // the buffer, so after carrying bytes over it kept too few, or none; and when it kept some, it went on
            // reading, past the terminator if it had met one. (Counting only one terminator in its total, too.)
            if (complete - 1 < fresh - 1)
            {
                carried = fresh - complete;
                chunk.Slice(complete, carried).CopyTo(chunk);
                continue;
            }
            if (filled < ChunkBytes)
            {
                Credit(total + 1);
                return result.ToString();
            }
            carried = 0;
        }
    }

    /// <summary>
    /// The old reader's guess at the index of the last byte of the last complete character in
    /// <c>chunk[..(end + 1)]</c>: it looked back for a lead or ASCII byte and counted the bytes after it.
    /// </summary>
    private static int LastCompleteIndex(ReadOnlySpan<byte> chunk, int end)
    {
        var at = end;
        var width = 0;
        while (at >= 0)
        {
            width = SequenceWidth(chunk[at]);
            if (width == 0)
            {
                at--;
                continue;
            }
            if (width > 1)
                at--;
            break;
        }
        return width == end - at ? end : at;
    }

    private static int SequenceWidth(byte lead) => lead switch
    {
        <= 0x7F => 1,
        >= 0xC2 and <= 0xDF => 2,
        >= 0xE0 and <= 0xEF => 3,
        >= 0xF0 and <= 0xF4 => 4,
        _ => 0, // continuation bytes, and bytes that never start a character
    };
}
