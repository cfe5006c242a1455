using System.Runtime.InteropServices;

namespace RavenLite.Storage.Esent.Native;

/// <summary>
/// <c>JET_COLUMNDEF</c>: a column's definition, for <c>JetAddColumn</c> and <c>JetGetTableColumnInfo</c>
/// (<c>JET_ColInfo</c>). All members are 32- or 16-bit, so the layout is the same on 32- and 64-bit
/// Windows: 28 bytes.
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal struct JetColumnDef
{
    /// <summary>sizeof(JET_COLUMNDEF).</summary>
    public uint Size;

    /// <summary>JET_COLUMNID; output of JetGetTableColumnInfo, ignored by JetAddColumn.</summary>
    public uint ColumnId;

    /// <summary>JET_COLTYP (<see cref="JetColtyp"/>).</summary>
    public uint Coltyp;

    /// <summary>wCountry; 0.</summary>
    public ushort Country;

    /// <summary>langid; 0.</summary>
    public ushort LangId;

    /// <summary>cp (code page, text columns only); 0.</summary>
    public ushort CodePage;

    /// <summary>wCollate; must be 0.</summary>
    public ushort Collate;

    /// <summary>cbMax; 0 for no limit.</summary>
    public uint MaxLength;

    /// <summary>JET_GRBIT (JET_bitColumn*).</summary>
    public uint Grbit;
}

/// <summary>
/// <c>JET_INDEXCREATE_W</c> as declared for <c>JET_VERSION</c> ≥ 0x0600 (Vista and later): with
/// <c>cbKeyMost</c> as its last member. For <c>JetCreateIndex2W</c>. Natural alignment (esent.h packs with
/// 8 on 64-bit, 4 on 32-bit, which is natural for these members): 80 bytes on x64, 48 on x86.
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct JetIndexCreate
{
    /// <summary>cbStruct: sizeof(JET_INDEXCREATE_W).</summary>
    public uint Size;

    /// <summary>szIndexName: a null-terminated UTF-16 name.</summary>
    public char* IndexName;

    /// <summary>szKey: "+column\0\0" tokens, double-null terminated.</summary>
    public char* Key;

    /// <summary>cbKey: the length of <see cref="Key"/> in bytes, both terminating nulls included.</summary>
    public uint KeySize;

    /// <summary>grbit (JET_bitIndex*).</summary>
    public uint Grbit;

    /// <summary>ulDensity: 20–100 (percent).</summary>
    public uint Density;

    /// <summary>The union of lcid (unsigned long) and pidxunicode (pointer); 0.</summary>
    public nint LcidOrUnicode;

    /// <summary>The union of cbVarSegMac (unsigned long) and ptuplelimits (pointer).</summary>
    public nint VarSegMacOrTupleLimits;

    /// <summary>rgconditionalcolumn; null.</summary>
    public nint ConditionalColumns;

    /// <summary>cConditionalColumn; 0.</summary>
    public uint ConditionalColumnCount;

    /// <summary>err: output, this index's result.</summary>
    public int Error;

    /// <summary>cbKeyMost: the longest normalized key kept without truncation (needs JET_bitIndexKeyMost).</summary>
    public uint KeyMost;
}
