using System.Runtime.InteropServices;

namespace RavenLite.Storage.Lmdb.Native;

/// <summary>LMDB's <c>MDB_val</c>: a length and a pointer, used for keys and values.</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct MdbVal
{
    public nuint Size;
    public byte* Data;

    public MdbVal(byte* data, int length)
    {
        Data = data;
        Size = (nuint)length;
    }

    public readonly ReadOnlySpan<byte> AsSpan() => new(Data, checked((int)Size));
}

/// <summary>LMDB's <c>MDB_envinfo</c>.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct MdbEnvInfo
{
    public nint MapAddress;
    public nuint MapSize;
    public nuint LastPageNumber;
    public nuint LastTransactionId;
    public uint MaxReaders;
    public uint NumReaders;
}
