using System.Text;

namespace RavenLite;

/// <summary>
/// The rule for document keys, the same for the embedded database, the server and the client: at most
/// <see cref="MaxBytes"/> bytes of UTF-8, not blank, no control characters or lone surrogates. Keys are kept with their
/// original casing and looked up case-insensitively by one rule, <see cref="Fold(string)"/>: storage, the indexes'
/// key terms and every key comparison (<see cref="DocumentKeyComparer"/>) use it.
/// </summary>
public static class DocumentKey
{
    /// <summary>
    /// The longest key, in UTF-8 bytes (of the key and of its case-folded form): 255, which ESENT's key
    /// limit and LMDB's 511-byte limit both honour.
    /// </summary>
    public const int MaxBytes = 255;

    /// <summary>Throws <see cref="ArgumentException"/> naming the problem when <paramref name="key"/> is not a valid key.</summary>
    public static void Validate(string? key, string paramName = "key")
    {
        if (FindProblem(key) is { } problem)
            throw Invalid(key, problem, paramName);
    }

    /// <summary>
    /// As <see cref="Validate(string?, string)"/> for item <paramref name="index"/> of a list; the parameter
    /// name (<c>keys[3]</c>) is only built when the key is bad, so checking a page of keys allocates nothing.
    /// </summary>
    public static void Validate(string? key, string listName, int index)
    {
        if (FindProblem(key) is { } problem)
            throw Invalid(key, problem, $"{listName}[{index}]");
    }

    /// <summary>Whether <paramref name="key"/> is a valid key (for values read from documents, which may hold anything).</summary>
    public static bool IsValid(string? key) => FindProblem(key) is null;

    /// <summary>
    /// The identity form of <paramref name="key"/>: each code point lower-cased by a frozen table (the mapping of
    /// <see cref="string.ToLowerInvariant()"/> under ICU 72, which RavenLite's storage keys were first written with), so
    /// the same key finds the same document whatever ICU version, or invariant globalization, the process runs with.
    /// ASCII folds A-Z to a-z only; the result has the same UTF-16 length. Returns <paramref name="key"/> itself when
    /// nothing changes.
    /// </summary>
    public static string Fold(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return KeyCaseFolding.Fold(key);
    }

    /// <summary>
    /// Writes <see cref="Fold(string)"/> of <paramref name="key"/> into <paramref name="destination"/> without allocating.
    /// </summary>
    /// <returns>How many chars were written: always <paramref name="key"/>'s length.</returns>
    public static int Fold(ReadOnlySpan<char> key, Span<char> destination)
    {
        if (destination.Length < key.Length)
            throw new ArgumentException($"The destination must hold at least {key.Length} chars.", nameof(destination));
        KeyCaseFolding.Fold(key, destination);
        return key.Length;
    }

    /// <summary>Whether <paramref name="x"/> and <paramref name="y"/> name the same document: their folds are equal.</summary>
    public static bool SameKey(string? x, string? y) => DocumentKeyComparer.Instance.Equals(x, y);

    /// <summary>Whether <paramref name="key"/> begins with the key prefix <paramref name="prefix"/>, both folded.</summary>
    public static bool HasPrefix(string key, string prefix)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(prefix);
        return prefix.Length <= key.Length && KeyCaseFolding.Equals(key.AsSpan(0, prefix.Length), prefix);
    }

    private static Exception Invalid(string? key, string problem, string paramName) =>
        key is null ? new ArgumentNullException(paramName, problem) : new ArgumentException(problem, paramName);

    private static string? FindProblem(string? key)
    {
        if (key is null)
            return "A document key is required.";
        // The common key (printable ASCII, no spaces, short) is valid at a glance; reads check one per document.
        if (key.Length is > 0 and <= MaxBytes && !key.AsSpan().ContainsAnyExceptInRange('!', '~'))
            return null;
        if (key.Length == 0 || string.IsNullOrWhiteSpace(key))
            return "A document key cannot be empty or whitespace.";
        for (var i = 0; i < key.Length; i++)
        {
            if (char.IsControl(key[i]))
                return $"A document key cannot contain control characters (found U+{(int)key[i]:X4} at {i}).";
        }
        if (Utf16Text.IndexOfUnpairedSurrogate(key) is var half and >= 0)
            return $"A document key cannot contain a lone surrogate (at {half}).";
        if (Encoding.UTF8.GetByteCount(key) > MaxBytes || FoldedByteCount(key) > MaxBytes)
            return $"A document key can be at most {MaxBytes} bytes of UTF-8; this one is {Encoding.UTF8.GetByteCount(key)}.";
        return null;
    }

    /// <summary>Only called once the key is known to be at most <see cref="MaxBytes"/> long, so the stack copy is small.</summary>
    private static int FoldedByteCount(string key)
    {
        Span<char> folded = stackalloc char[key.Length];
        KeyCaseFolding.Fold(key, folded);
        return Encoding.UTF8.GetByteCount(folded);
    }
}
