namespace RavenLite.Storage.Lmdb.Native;

/// <summary>Flag and error values from lmdb.h (0.9.x).</summary>
internal static class MdbConstants
{
    // mdb_env_open flags
    public const uint NoSync = 0x10000;
    public const uint NoMetaSync = 0x40000;
    public const uint NoTls = 0x200000;
    public const uint NoReadAhead = 0x800000;

    // mdb_env_copy2 flags
    public const uint CopyCompact = 0x01;

    // mdb_dbi_open flags
    public const uint Create = 0x40000;

    // return codes
    public const int Success = 0;
    public const int InputOutputError = 5;  // EIO: LMDB's answer to a short write, as on a disk that just filled up
    public const int NoSpaceLeft = 28;      // ENOSPC
    public const int KeyExist = -30799;
    public const int NotFound = -30798;
    public const int PageNotFound = -30797;
    public const int Corrupted = -30796;
    public const int Panic = -30795;
    public const int VersionMismatch = -30794;
    public const int Invalid = -30793;
    public const int MapFull = -30792;
    public const int DbsFull = -30791;
    public const int ReadersFull = -30790;
    public const int TxnFull = -30788;
    public const int PageFull = -30786;
    public const int MapResized = -30785;
    public const int BadTxn = -30782;
    public const int BadValSize = -30781;
}

/// <summary>LMDB's <c>MDB_cursor_op</c>.</summary>
internal enum MdbCursorOp
{
    First = 0,
    GetCurrent = 4,
    Last = 6,
    Next = 8,
    Prev = 12,
    Set = 15,
    SetKey = 16,
    SetRange = 17,
}
