using System.Buffers;
using System.Text;

namespace RavenLite.Storage.Documents;

/// <summary>
/// The storage form of a document key (<see cref="DocumentKey"/> is the rule for valid ones): the UTF-8 bytes of its
/// fold (<see cref="DocumentKey.Fold(string)"/>, a frozen table, not the running ICU's lower-casing), so lookups are
/// case-insensitive the same way in every process while the document keeps its original casing.
/// </summary>
internal static class StorageKey
{
    /// <summary>The storage form of a valid key: its case-folded UTF-8 bytes.</summary>
    internal static byte[] ToStorage(string key)
    {
        Span<byte> buffer = stackalloc byte[DocumentKey.MaxBytes];
        return buffer[..ToStorage(key, buffer)].ToArray();
    }

    /// <summary>
    /// Writes the storage form of a valid key into <paramref name="destination"/> (at least <see cref="DocumentKey.MaxBytes"/>
    /// long) without allocating: the read path's lookups.
    /// </summary>
    /// <returns>How many bytes were written.</returns>
    internal static int ToStorage(string key, Span<byte> destination)
    {
        // ASCII folds to ASCII of the same length: A-Z -> a-z.
        if (Ascii.ToLower(key, destination, out var written) == OperationStatus.Done)
            return written;
        Span<char> folded = stackalloc char[key.Length];
        DocumentKey.Fold(key, folded);
        return Encoding.UTF8.GetBytes(folded, destination);
    }
}
