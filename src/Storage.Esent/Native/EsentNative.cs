using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace RavenLite.Storage.Esent.Native;

/// <summary>
/// Our own binding to <c>esent.dll</c>, the Extensible Storage Engine that ships with Windows, written from
/// the documented Win32 API (<c>esent.h</c>). Only the calls the engine uses are declared.
/// </summary>
/// <remarks>
/// Type mapping (64-bit and 32-bit alike): <c>JET_ERR</c> is a 32-bit <c>long</c> → <see cref="int"/>;
/// <c>JET_INSTANCE</c>, <c>JET_SESID</c>, <c>JET_TABLEID</c> and <c>JET_API_PTR</c> are pointer-sized
/// (<c>JET_API_PTR</c>) → <see cref="nint"/>; <c>JET_DBID</c>, <c>JET_COLUMNID</c>, <c>JET_GRBIT</c> and
/// <c>unsigned long</c> are 32-bit → <see cref="uint"/>. <c>JET_API</c> is <c>__stdcall</c>, the platform
/// default that <see cref="LibraryImportAttribute"/> uses. Strings go to the <c>W</c> (UTF-16) entry points.
/// Every function returns a <c>JET_ERR</c>: 0 success, positive a warning, negative an error.
/// </remarks>
[SupportedOSPlatform("windows")]
internal static unsafe partial class EsentNative
{
    private const string Library = "esent.dll";

    // ---- Instance ----

    [LibraryImport(Library, EntryPoint = "JetCreateInstance2W", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetCreateInstance2(out nint instance, string instanceName, string? displayName, uint grbit);

    /// <summary>
    /// Sets a system parameter. <paramref name="instance"/> null sets a global (process-wide) parameter;
    /// <paramref name="value"/> carries integer parameters, <paramref name="text"/> string parameters.
    /// </summary>
    [LibraryImport(Library, EntryPoint = "JetSetSystemParameterW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetSetSystemParameter(nint* instance, nint sesid, uint paramId, nint value, string? text);

    [LibraryImport(Library, EntryPoint = "JetInit")]
    public static partial int JetInit(ref nint instance);

    [LibraryImport(Library, EntryPoint = "JetTerm2")]
    public static partial int JetTerm2(nint instance, uint grbit);

    // ---- Sessions ----

    [LibraryImport(Library, EntryPoint = "JetBeginSessionW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetBeginSession(nint instance, out nint sesid, string? userName, string? password);

    [LibraryImport(Library, EntryPoint = "JetEndSession")]
    public static partial int JetEndSession(nint sesid, uint grbit);

    /// <summary>Lets a session in a transaction be used from another thread (one thread at a time).</summary>
    [LibraryImport(Library, EntryPoint = "JetSetSessionContext")]
    public static partial int JetSetSessionContext(nint sesid, nint context);

    [LibraryImport(Library, EntryPoint = "JetResetSessionContext")]
    public static partial int JetResetSessionContext(nint sesid);

    // ---- Databases ----

    [LibraryImport(Library, EntryPoint = "JetCreateDatabaseW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetCreateDatabase(nint sesid, string fileName, string? connect, out uint dbid, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetAttachDatabaseW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetAttachDatabase(nint sesid, string fileName, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetDetachDatabaseW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetDetachDatabase(nint sesid, string? fileName);

    [LibraryImport(Library, EntryPoint = "JetOpenDatabaseW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetOpenDatabase(nint sesid, string fileName, string? connect, out uint dbid, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetCloseDatabase")]
    public static partial int JetCloseDatabase(nint sesid, uint dbid, uint grbit);

    // ---- Schema ----

    [LibraryImport(Library, EntryPoint = "JetCreateTableW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetCreateTable(nint sesid, uint dbid, string tableName, uint pages, uint density, out nint tableid);

    /// <remarks><c>columnDef</c>: A <see cref="JetColumnDef"/>. <c>defaultValue</c>: Null: no default value.</remarks>
    [LibraryImport(Library, EntryPoint = "JetAddColumnW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetAddColumn(
        nint sesid, nint tableid, string columnName, JetColumnDef* columnDef, void* defaultValue, uint defaultSize,
        out uint columnid);

    /// <remarks><c>indexCreate</c>: An array of <paramref name="count"/> <see cref="JetIndexCreate"/>.</remarks>
    [LibraryImport(Library, EntryPoint = "JetCreateIndex2W")]
    public static partial int JetCreateIndex2(nint sesid, nint tableid, JetIndexCreate* indexCreate, uint count);

    /// <remarks><c>result</c>: For <see cref="JetInfoLevel.ColInfo"/>, a <see cref="JetColumnDef"/>.</remarks>
    [LibraryImport(Library, EntryPoint = "JetGetTableColumnInfoW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetGetTableColumnInfo(
        nint sesid, nint tableid, string columnName, void* result, uint resultSize, uint infoLevel);

    // ---- Cursors ----

    [LibraryImport(Library, EntryPoint = "JetOpenTableW", StringMarshalling = StringMarshalling.Utf16)]
    public static partial int JetOpenTable(
        nint sesid, uint dbid, string tableName, void* parameters, uint parametersSize, uint grbit, out nint tableid);

    [LibraryImport(Library, EntryPoint = "JetDupCursor")]
    public static partial int JetDupCursor(nint sesid, nint tableid, out nint newTableid, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetCloseTable")]
    public static partial int JetCloseTable(nint sesid, nint tableid);

    /// <remarks><c>rows</c>: A count, or <see cref="JetMoveRows.First"/>/<see cref="JetMoveRows.Last"/> (a C <c>long</c>: 32-bit).</remarks>
    [LibraryImport(Library, EntryPoint = "JetMove")]
    public static partial int JetMove(nint sesid, nint tableid, int rows, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetMakeKey")]
    public static partial int JetMakeKey(nint sesid, nint tableid, byte* data, uint size, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetSeek")]
    public static partial int JetSeek(nint sesid, nint tableid, uint grbit);

    /// <remarks><c>retInfo</c>: A <c>JET_RETINFO*</c>; always null here.</remarks>
    [LibraryImport(Library, EntryPoint = "JetRetrieveColumn")]
    public static partial int JetRetrieveColumn(
        nint sesid, nint tableid, uint columnid, byte* data, uint size, uint* actualSize, uint grbit, void* retInfo);

    // ---- Updates ----

    [LibraryImport(Library, EntryPoint = "JetPrepareUpdate")]
    public static partial int JetPrepareUpdate(nint sesid, nint tableid, uint prep);

    /// <remarks><c>setInfo</c>: A <c>JET_SETINFO*</c>; always null here.</remarks>
    [LibraryImport(Library, EntryPoint = "JetSetColumn")]
    public static partial int JetSetColumn(
        nint sesid, nint tableid, uint columnid, byte* data, uint size, uint grbit, void* setInfo);

    /// <remarks><c>bookmark</c>: Null: the new record's bookmark is not wanted.</remarks>
    [LibraryImport(Library, EntryPoint = "JetUpdate")]
    public static partial int JetUpdate(nint sesid, nint tableid, void* bookmark, uint bookmarkSize, uint* actualSize);

    [LibraryImport(Library, EntryPoint = "JetDelete")]
    public static partial int JetDelete(nint sesid, nint tableid);

    // ---- Transactions ----

    [LibraryImport(Library, EntryPoint = "JetBeginTransaction2")]
    public static partial int JetBeginTransaction2(nint sesid, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetCommitTransaction")]
    public static partial int JetCommitTransaction(nint sesid, uint grbit);

    [LibraryImport(Library, EntryPoint = "JetRollback")]
    public static partial int JetRollback(nint sesid, uint grbit);
}
