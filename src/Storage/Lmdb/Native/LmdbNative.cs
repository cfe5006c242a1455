using System.Reflection;
using System.Runtime.InteropServices;

namespace RavenLite.Storage.Lmdb.Native;

/// <summary>
/// Our own binding to the C library <c>liblmdb</c> (Debian's <c>liblmdb0</c>; <c>lmdb.dll</c> on Windows).
/// Only the calls the engine uses are declared.
/// </summary>
internal static unsafe partial class LmdbNative
{
    private const string Library = "lmdb";

    // Runs before the first call into the library, whichever it is.
    static LmdbNative() => NativeLibrary.SetDllImportResolver(typeof(LmdbNative).Assembly, Resolve);

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (name != Library)
            return 0;
        string[] candidates = OperatingSystem.IsWindows() ? ["lmdb.dll", "liblmdb.dll"]
            : OperatingSystem.IsMacOS() ? ["liblmdb.dylib", "liblmdb.0.dylib"]
            : ["liblmdb.so.0", "liblmdb.so"];
        foreach (var candidate in candidates)
        {
            if (NativeLibrary.TryLoad(candidate, assembly, searchPath, out var handle))
                return handle;
        }
        throw new DllNotFoundException(
            "RavenLite's LMDB engine needs the LMDB C library (liblmdb.so.0), which was not found. " +
            "On Debian or Ubuntu: apt-get install liblmdb0. The build installs it when run as root; see README.");
    }

    [LibraryImport(Library, EntryPoint = "mdb_version")]
    public static partial nint Version(out int major, out int minor, out int patch);

    [LibraryImport(Library, EntryPoint = "mdb_strerror")]
    public static partial nint StrError(int error);

    [LibraryImport(Library, EntryPoint = "mdb_env_create")]
    public static partial int EnvCreate(out nint env);

    [LibraryImport(Library, EntryPoint = "mdb_env_open", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int EnvOpen(nint env, string path, uint flags, uint mode);

    [LibraryImport(Library, EntryPoint = "mdb_env_close")]
    public static partial void EnvClose(nint env);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_mapsize")]
    public static partial int EnvSetMapSize(nint env, nuint size);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_maxdbs")]
    public static partial int EnvSetMaxDbs(nint env, uint dbs);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_maxreaders")]
    public static partial int EnvSetMaxReaders(nint env, uint readers);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_flags")]
    public static partial int EnvSetFlags(nint env, uint flags, int onoff);

    [LibraryImport(Library, EntryPoint = "mdb_env_info")]
    public static partial int EnvInfo(nint env, out MdbEnvInfo info);

    [LibraryImport(Library, EntryPoint = "mdb_env_sync")]
    public static partial int EnvSync(nint env, int force);

    /// <summary>Copies the environment into <paramref name="path"/> (a folder) from one read snapshot.</summary>
    [LibraryImport(Library, EntryPoint = "mdb_env_copy2", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int EnvCopy2(nint env, string path, uint flags);

    [LibraryImport(Library, EntryPoint = "mdb_env_get_maxkeysize")]
    public static partial int EnvGetMaxKeySize(nint env);

    [LibraryImport(Library, EntryPoint = "mdb_txn_begin")]
    public static partial int TxnBegin(nint env, nint parent, uint flags, out nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_commit")]
    public static partial int TxnCommit(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_abort")]
    public static partial void TxnAbort(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_dbi_open", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int DbiOpen(nint txn, string name, uint flags, out uint dbi);

    [LibraryImport(Library, EntryPoint = "mdb_get")]
    public static partial int Get(nint txn, uint dbi, ref MdbVal key, out MdbVal data);

    [LibraryImport(Library, EntryPoint = "mdb_put")]
    public static partial int Put(nint txn, uint dbi, ref MdbVal key, ref MdbVal data, uint flags);

    [LibraryImport(Library, EntryPoint = "mdb_del")]
    public static partial int Del(nint txn, uint dbi, ref MdbVal key, nint data);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_open")]
    public static partial int CursorOpen(nint txn, uint dbi, out nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_close")]
    public static partial void CursorClose(nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_get")]
    public static partial int CursorGet(nint cursor, ref MdbVal key, ref MdbVal data, MdbCursorOp op);

    public static string Describe(int error)
    {
        var message = Marshal.PtrToStringUTF8(StrError(error));
        return $"LMDB error {error}: {message}";
    }
}
