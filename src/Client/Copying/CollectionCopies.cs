using System.Runtime.InteropServices;

namespace RavenLite.Client.Copying;

/// <summary>Copies and comparisons of the collections the copier knows; <c>copy</c> is null for leaf elements (shared as they are).</summary>
internal static class CollectionCopies
{
    public static T[]? CopyArray<T>(T[]? source, Func<T, T>? copy)
    {
        if (source is null)
            return null;
        if (copy is null)
            return (T[])source.Clone();
        var result = new T[source.Length];
        for (var i = 0; i < result.Length; i++)
            result[i] = copy(source[i]);
        return result;
    }

    public static List<T>? CopyList<T>(List<T>? source, Func<T, T>? copy)
    {
        if (source is null)
            return null;
        if (copy is null)
            return new List<T>(source);
        var result = new List<T>(source.Count);
        foreach (var item in source)
            result.Add(copy(item));
        return result;
    }

    public static HashSet<T>? CopySet<T>(HashSet<T>? source) => source is null ? null : new HashSet<T>(source, source.Comparer);

    public static Dictionary<TKey, TValue>? CopyDictionary<TKey, TValue>(Dictionary<TKey, TValue>? source, Func<TValue, TValue>? copy)
        where TKey : notnull
    {
        if (source is null)
            return null;
        if (copy is null)
            return new Dictionary<TKey, TValue>(source, source.Comparer);
        var result = new Dictionary<TKey, TValue>(source.Count, source.Comparer);
        foreach (var (key, value) in source)
            result.Add(key, copy(value));
        return result;
    }

    public static bool SameArray<T>(T[]? a, T[]? b, Func<T, T, bool> same) =>
        a is null || b is null ? a is null && b is null : SameItems<T>(a, b, same);

    public static bool SameList<T>(List<T>? a, List<T>? b, Func<T, T, bool> same) =>
        a is null || b is null ? a is null && b is null : SameItems<T>(CollectionsMarshal.AsSpan(a), CollectionsMarshal.AsSpan(b), same);

    private static bool SameItems<T>(ReadOnlySpan<T> a, ReadOnlySpan<T> b, Func<T, T, bool> same)
    {
        if (a.Length != b.Length)
            return false;
        for (var i = 0; i < a.Length; i++)
        {
            if (!same(a[i], b[i]))
                return false;
        }
        return true;
    }

    /// <summary>The same members, in the same order (the JSON lists them in enumeration order).</summary>
    public static bool SameSet<T>(HashSet<T>? a, HashSet<T>? b)
    {
        if (a is null || b is null)
            return a is null && b is null;
        return a.Count == b.Count && a.SequenceEqual(b, Leaf<T>.Comparer);
    }

    /// <summary>The same keys with the same values, in the same order (the JSON lists them in enumeration order).</summary>
    public static bool SameDictionary<TKey, TValue>(Dictionary<TKey, TValue>? a, Dictionary<TKey, TValue>? b, Func<TValue, TValue, bool> same)
        where TKey : notnull
    {
        if (a is null || b is null)
            return a is null && b is null;
        if (a.Count != b.Count)
            return false;
        using var other = b.GetEnumerator();
        foreach (var (key, value) in a)
        {
            if (!other.MoveNext() || !LeafTypes.Same(key, other.Current.Key) || !same(value, other.Current.Value))
                return false;
        }
        return true;
    }

    private static class Leaf<T>
    {
        public static readonly IEqualityComparer<T> Comparer = EqualityComparer<T>.Create((x, y) => LeafTypes.Same(x, y), x => x?.GetHashCode() ?? 0);
    }
}
