using System.Text;

namespace RavenLite.Storage.Documents;

/// <summary>
/// Document keys: looked up case-insensitively (invariant culture), stored with their original casing.
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
        if (key is null)
            throw new ArgumentNullException(paramName, "A document key is required.");
        if (key.Length == 0 || string.IsNullOrWhiteSpace(key))
            throw new ArgumentException("A document key cannot be empty or whitespace.", paramName);
        for (var i = 0; i < key.Length; i++)
        {
            var c = key[i];
            if (char.IsControl(c))
                throw new ArgumentException(
                    $"A document key cannot contain control characters (found U+{(int)c:X4} at {i}).", paramName);
            if (char.IsSurrogate(c) && !(char.IsHighSurrogate(c) && i + 1 < key.Length && char.IsLowSurrogate(key[++i])))
                throw new ArgumentException($"A document key cannot contain a lone surrogate (at {i}).", paramName);
        }
        if (Encoding.UTF8.GetByteCount(key) > MaxBytes || Encoding.UTF8.GetByteCount(Fold(key)) > MaxBytes)
            throw new ArgumentException(
                $"A document key can be at most {MaxBytes} bytes of UTF-8; this one is {Encoding.UTF8.GetByteCount(key)}.",
                paramName);
    }

    /// <summary>The storage form of a valid key: its case-folded UTF-8 bytes.</summary>
    internal static byte[] ToStorage(string key) => Encoding.UTF8.GetBytes(Fold(key));

    private static string Fold(string key) => key.ToLowerInvariant();
}
