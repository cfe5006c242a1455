using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>
/// A table the engine has opened: the handle it gave out, the ESENT table's name, and the column ids of
/// <c>k</c> and <c>v</c> (a table's column ids are the same in every session).
/// </summary>
internal sealed class EsentTable(StorageTable handle, string esentName, uint keyColumn, uint valueColumn)
{
    /// <summary>The key column: JET_coltypLongBinary, the table's only primary-index segment.</summary>
    public const string KeyColumnName = "k";

    /// <summary>The value column: JET_coltypLongBinary.</summary>
    public const string ValueColumnName = "v";

    /// <summary>The primary index over <c>+k</c>.</summary>
    public const string IndexName = "primary";

    private const string Prefix = "t_";

    public StorageTable Handle { get; } = handle;

    public string Name => Handle.Name;

    public int Id => Handle.Id;

    public string EsentName { get; } = esentName;

    public uint KeyColumn { get; } = keyColumn;

    public uint ValueColumn { get; } = valueColumn;

    /// <summary>
    /// The ESENT name for a table name. ESENT names are case-insensitive ASCII of fewer than 64 characters,
    /// without <c>! , [ ] .</c> or control characters, and must not collide with the system tables
    /// (<c>MSys*</c>); RavenLite's names are case-sensitive and any Unicode. So: <c>t_</c>, then the name
    /// with everything but <c>[a-z0-9_-]</c> written as <c>~xx</c> (lowercase hex of its UTF-8 bytes),
    /// which keeps distinct names distinct under ESENT's case folding; names too long for that become
    /// <c>t_~h</c> and 32 hex digits of their SHA-256.
    /// </summary>
    public static string EsentNameOf(string name)
    {
        var builder = new StringBuilder(Prefix, JetLimits.NameMost);
        foreach (var b in Encoding.UTF8.GetBytes(name))
        {
            if (b is >= (byte)'a' and <= (byte)'z' or >= (byte)'0' and <= (byte)'9' or (byte)'_' or (byte)'-')
                builder.Append((char)b);
            else
                builder.Append('~').Append(b.ToString("x2", CultureInfo.InvariantCulture));
        }
        if (builder.Length < JetLimits.NameMost)
            return builder.ToString();
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(name));
        return Prefix + "~h" + Convert.ToHexStringLower(hash, 0, 16);
    }
}
