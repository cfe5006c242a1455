using System.Numerics;
using System.Runtime.Versioning;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>Seeking on the primary index and reading columns of the current record.</summary>
[SupportedOSPlatform("windows")]
internal static unsafe class EsentRecord
{
    /// <summary>
    /// The longest key a table accepts. ESENT normalizes a variable-length binary key segment to 9 bytes per
    /// 8-byte chunk plus a header byte (1000 bytes → 1126), which the index's cbKeyMost of
    /// <see cref="JetLimits.KeyMost8KBytePage"/> holds without truncation.
    /// </summary>
    public const int MaxKeySize = 1000;

    /// <summary>Throws for an empty key (as the LMDB engine does), or one too long to store.</summary>
    public static void ValidateKeyForWrite(ReadOnlySpan<byte> key, string paramName)
    {
        if (key.IsEmpty)
            throw new ArgumentException("A storage key cannot be empty.", paramName);
        if (key.Length > MaxKeySize)
            throw new ArgumentException(
                $"A storage key is {key.Length} bytes; the ESENT engine's maximum is {MaxKeySize}.", paramName);
    }

    /// <summary>Throws for an empty key; false for one too long to be stored (so it is not there).</summary>
    public static bool IsStorableKey(ReadOnlySpan<byte> key, string paramName)
    {
        if (key.IsEmpty)
            throw new ArgumentException("A storage key cannot be empty.", paramName);
        return key.Length <= MaxKeySize;
    }

    /// <summary>Builds a search key from <paramref name="key"/> (at most <see cref="MaxKeySize"/> bytes).</summary>
    public static void MakeKey(nint sesid, nint tableid, ReadOnlySpan<byte> key)
    {
        fixed (byte* data = key)
        {
            var grbit = JetBit.NewKey | (key.IsEmpty ? JetBit.KeyDataZeroLength : 0);
            EsentErrors.Check(EsentNative.JetMakeKey(sesid, tableid, data, (uint)key.Length, grbit), "Making a search key");
        }
    }

    /// <summary>Positions the cursor on the record whose key is <paramref name="key"/>; false when none.</summary>
    public static bool SeekEqual(nint sesid, nint tableid, ReadOnlySpan<byte> key)
    {
        MakeKey(sesid, tableid, key);
        var code = EsentNative.JetSeek(sesid, tableid, JetBit.SeekEQ);
        if (code == JetErr.RecordNotFound)
            return false;
        EsentErrors.Check(code, "Seeking a key");
        return true;
    }

    /// <summary>Positions the cursor on the first record whose key is ≥ <paramref name="key"/>; false when none.</summary>
    public static bool SeekGreaterOrEqual(nint sesid, nint tableid, ReadOnlySpan<byte> key)
    {
        MakeKey(sesid, tableid, key);
        var code = EsentNative.JetSeek(sesid, tableid, JetBit.SeekGE);
        if (code == JetErr.RecordNotFound)
            return false;
        EsentErrors.Check(code, "Seeking a key"); // JET_wrnSeekNotEqual: on a greater key.
        return true;
    }

    /// <summary>
    /// Reads <paramref name="column"/> of the current record into <paramref name="buffer"/>, replacing the
    /// buffer with a larger one when it is too small (exactly the value's size when <paramref name="exact"/>).
    /// A NULL column reads as empty. Returns the value's length.
    /// </summary>
    public static int Retrieve(nint sesid, nint tableid, uint column, ref byte[] buffer, bool exact)
    {
        while (true)
        {
            uint actual = 0;
            int code;
            fixed (byte* data = buffer)
                code = EsentNative.JetRetrieveColumn(sesid, tableid, column, data, (uint)buffer.Length, &actual, 0, null);
            if (code == JetErr.WrnColumnNull)
                return 0;
            EsentErrors.Check(code, "Reading a column");
            if (code != JetErr.WrnBufferTruncated)
                return checked((int)actual);
            var size = checked((int)actual);
            buffer = new byte[exact ? size : (int)Math.Min(BitOperations.RoundUpToPowerOf2((uint)size), (uint)Array.MaxLength)];
        }
    }

    /// <summary>Sets a column of the record being prepared; an empty value is stored as zero-length, not NULL.</summary>
    public static void SetColumn(nint sesid, nint tableid, uint column, ReadOnlySpan<byte> value)
    {
        fixed (byte* data = value)
        {
            var grbit = value.IsEmpty ? JetBit.SetZeroLength : 0;
            EsentErrors.Check(EsentNative.JetSetColumn(sesid, tableid, column, data, (uint)value.Length, grbit, null),
                "Setting a column");
        }
    }
}
