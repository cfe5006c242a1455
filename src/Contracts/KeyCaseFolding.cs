using System.Buffers;
using System.Diagnostics;
using System.Text;

namespace RavenLite;

/// <summary>
/// Folds document keys for identity: each code point through the frozen table (<c>KeyCaseFolding.Table.cs</c>), so
/// two keys are the same key exactly when their folds are equal, whatever ICU version (or invariant globalization)
/// the process runs with. The fold keeps the UTF-16 length and the position of every surrogate pair.
/// </summary>
internal static partial class KeyCaseFolding
{
    /// <summary>Keys up to this many chars are folded on the stack, in a buffer sized to the key (a fixed block would be zeroed whole).</summary>
    private const int StackChars = 256;

    /// <summary>The fold of one code point (a lone surrogate folds to itself).</summary>
    public static int Fold(int codePoint)
    {
        if (codePoint < 0x80)
            return codePoint is >= 'A' and <= 'Z' ? codePoint | 0x20 : codePoint;
        var first = First;
        int low = 0, high = RangeCount - 1;
        while (low <= high)
        {
            var mid = (low + high) >>> 1;
            if (first[mid] > codePoint)
                high = mid - 1;
            else if (Last[mid] < codePoint)
                low = mid + 1;
            else
                return (codePoint - first[mid]) % Step[mid] == 0 ? codePoint + Delta[mid] : codePoint;
        }
        return codePoint;
    }

    /// <summary>Writes the fold of <paramref name="source"/> into <paramref name="destination"/> (at least as long).</summary>
    public static void Fold(ReadOnlySpan<char> source, Span<char> destination)
    {
        if (Ascii.ToLower(source, destination, out _) == OperationStatus.Done)
            return;
        for (var i = 0; i < source.Length; i++)
        {
            var c = source[i];
            if (char.IsHighSurrogate(c) && i + 1 < source.Length && char.IsLowSurrogate(source[i + 1]))
            {
                var folded = Fold(char.ConvertToUtf32(c, source[i + 1]));
                Debug.Assert(folded > 0xFFFF, "The table maps supplementary code points to supplementary ones.");
                new Rune(folded).EncodeToUtf16(destination[i..]);
                i++;
            }
            else
                destination[i] = (char)Fold(c);
        }
    }

    /// <summary>The fold of <paramref name="key"/>; the same instance when nothing changes.</summary>
    public static string Fold(string key)
    {
        var rented = key.Length <= StackChars ? null : ArrayPool<char>.Shared.Rent(key.Length);
        var folded = rented is null ? stackalloc char[key.Length] : rented.AsSpan(0, key.Length);
        Fold(key, folded);
        var result = folded.SequenceEqual(key) ? key : new string(folded);
        if (rented is not null)
            ArrayPool<char>.Shared.Return(rented);
        return result;
    }

    public static bool Equals(ReadOnlySpan<char> x, ReadOnlySpan<char> y)
    {
        if (x.Length != y.Length)
            return false;
        if (Ascii.EqualsIgnoreCase(x, y))
            return true;
        var rented = x.Length <= StackChars ? null : ArrayPool<char>.Shared.Rent(2 * x.Length);
        var buffer = rented is null ? stackalloc char[2 * x.Length] : rented;
        var foldedX = buffer[..x.Length];
        var foldedY = buffer.Slice(x.Length, y.Length);
        Fold(x, foldedX);
        Fold(y, foldedY);
        var equal = foldedX.SequenceEqual(foldedY);
        if (rented is not null)
            ArrayPool<char>.Shared.Return(rented);
        return equal;
    }

    /// <summary>
    /// A hash equal for keys with equal folds. It hashes with <see cref="StringComparison.OrdinalIgnoreCase"/>, which
    /// is ASCII-case-blind: an ASCII key hashes as it is, without folding it first (as fast as the runtime's own
    /// case-insensitive comparer), and any other key hashes its fold, so a key and its ASCII fold (the Kelvin sign and
    /// <c>k</c>) hash alike.
    /// </summary>
    public static int GetHashCode(ReadOnlySpan<char> key)
    {
        if (Ascii.IsValid(key))
            return string.GetHashCode(key, StringComparison.OrdinalIgnoreCase);
        var rented = key.Length <= StackChars ? null : ArrayPool<char>.Shared.Rent(key.Length);
        var folded = rented is null ? stackalloc char[key.Length] : rented.AsSpan(0, key.Length);
        Fold(key, folded);
        var hash = string.GetHashCode(folded, StringComparison.OrdinalIgnoreCase);
        if (rented is not null)
            ArrayPool<char>.Shared.Return(rented);
        return hash;
    }
}
