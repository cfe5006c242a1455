using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace RavenLite.Indexing.Definitions;

/// <summary>
/// Index names: compared case-insensitively, at most <see cref="MaxLength"/> characters of ASCII letters, digits,
/// <c>/ - _ .</c>; <c>/</c> only between non-empty parts (<c>Raven/DocumentsByEntityName</c>), no <c>..</c>, and no
/// part that is a Windows device name (<c>con</c>, <c>nul</c>, <c>prn</c>, <c>aux</c>, <c>com1</c>-<c>com9</c>,
/// <c>lpt1</c>-<c>lpt9</c>, with or without an extension). ASCII only, because names are compared ignoring case and
/// mapped to folders by lower-casing: outside ASCII those two disagree (the Kelvin sign lower-cases to <c>k</c>;
/// <c>σ</c> and <c>ς</c> are equal ignoring case but lower-case apart). Each index lives in a folder whose name is
/// derived safely from its name.
/// </summary>
public static class IndexName
{
    /// <summary>The longest index name, in characters.</summary>
    public const int MaxLength = 100;

    /// <summary>Names starting with this are the built-in indexes'; users cannot create, change or delete them.</summary>
    public const string ReservedPrefix = "Raven/";

    private const int MaxFolderNameLength = 100;

    /// <summary>Throws <see cref="ArgumentException"/> naming the problem when <paramref name="name"/> is not a valid index name.</summary>
    public static void Validate(string? name)
    {
        if (FindProblem(name) is { } problem)
            throw name is null ? new ArgumentNullException(nameof(name), problem) : new ArgumentException(problem, nameof(name));
    }

    /// <summary>Whether <paramref name="name"/> is in the reserved <c>Raven/</c> space.</summary>
    public static bool IsReserved(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return name.StartsWith(ReservedPrefix, StringComparison.OrdinalIgnoreCase);
    }

    private static string? FindProblem(string? name)
    {
        if (name is null)
            return "An index name is required.";
        if (string.IsNullOrWhiteSpace(name))
            return "An index name cannot be empty or whitespace.";
        if (name.Length > MaxLength)
            return $"An index name can be at most {MaxLength} characters; '{name[..20]}...' has {name.Length}.";
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            if (!IsAllowed(c))
                return $"The index name '{Printable(name)}' contains {Describe(c)} at {i}; index names may hold only ASCII letters, digits, '/', '-', '_' and '.'.";
        }
        if (name.Contains("..", StringComparison.Ordinal))
            return $"The index name '{name}' contains '..'; index names cannot look like relative paths.";
        if (name.StartsWith('/') || name.EndsWith('/') || name.Contains("//", StringComparison.Ordinal))
            return $"The index name '{name}' has an empty part: '/' may only separate non-empty parts.";
        foreach (var part in name.Split('/'))
        {
            if (IsDeviceName(part))
                return $"The index name '{name}' has the part '{part}', a Windows device name (con, nul, prn, aux, com1-9, lpt1-9), which cannot be a file name.";
        }
        return null;
    }

    private static bool IsAllowed(char c) => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or '/' or '-' or '_' or '.';

    private static string Describe(char c) =>
        c is > ' ' and < (char)0x7F ? $"'{c}'" : $"U+{(int)c:X4}";

    /// <summary>The name as it may be quoted in a message: control characters would garble a log line.</summary>
    private static string Printable(string name) =>
        string.Concat(name.Select(c => char.IsControl(c) ? '?' : c));

    /// <summary>Windows refuses these as file names in any folder and with any extension (<c>nul.txt</c>).</summary>
    private static bool IsDeviceName(string part)
    {
        var dot = part.IndexOf('.');
        var stem = dot < 0 ? part : part[..dot];
        if (stem.Length == 3)
            return stem.Equals("con", StringComparison.OrdinalIgnoreCase) || stem.Equals("nul", StringComparison.OrdinalIgnoreCase)
                || stem.Equals("prn", StringComparison.OrdinalIgnoreCase) || stem.Equals("aux", StringComparison.OrdinalIgnoreCase);
        return stem.Length == 4 && stem[3] is >= '1' and <= '9'
            && (stem.StartsWith("com", StringComparison.OrdinalIgnoreCase) || stem.StartsWith("lpt", StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// The folder name for a valid index name: the lower-cased name with every character other than <c>a-z</c>,
    /// <c>0-9</c> and <c>-</c> written as <c>_</c> plus the hex of its UTF-8 bytes (<c>raven_2fdocumentsbyentityname</c>),
    /// so it is one path segment on every OS and names equal but for case share it. Long names are cut and
    /// given a hash of the whole name.
    /// </summary>
    public static string ToFolderName(string name)
    {
        Validate(name);
        var lower = name.ToLowerInvariant();
        var folder = new StringBuilder(lower.Length + 8);
        Span<byte> utf8 = stackalloc byte[4];
        foreach (var rune in lower.EnumerateRunes())
        {
            if (rune.Value is >= 'a' and <= 'z' or >= '0' and <= '9' or '-')
            {
                folder.Append((char)rune.Value);
                continue;
            }
            var length = rune.EncodeToUtf8(utf8);
            for (var i = 0; i < length; i++)
                folder.Append('_').Append(utf8[i].ToString("x2", CultureInfo.InvariantCulture));
        }
        if (folder.Length <= MaxFolderNameLength)
            return folder.ToString();
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(lower)).AsSpan(0, 8));
        // The hash of the whole name keeps cut names apart, so cutting through an escape is harmless.
        return string.Concat(folder.ToString(0, MaxFolderNameLength - 17), "~", hash);
    }
}
