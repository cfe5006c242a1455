namespace RavenLite.Indexing.Querying;

/// <summary>Operations on ascending, duplicate-free arrays of doc ids: how boolean queries combine their clauses.</summary>
internal static class DocIdSets
{
    public static long[] FromUnsorted(List<long> ids)
    {
        ids.Sort();
        var write = 0;
        for (var read = 0; read < ids.Count; read++)
        {
            if (write == 0 || ids[read] != ids[write - 1])
                ids[write++] = ids[read];
        }
        return ids.GetRange(0, write).ToArray();
    }

    public static long[] Intersect(long[] a, long[] b)
    {
        var result = new List<long>(Math.Min(a.Length, b.Length));
        for (int i = 0, j = 0; i < a.Length && j < b.Length;)
        {
            if (a[i] < b[j])
                i++;
            else if (a[i] > b[j])
                j++;
            else
            {
                result.Add(a[i]);
                i++;
                j++;
            }
        }
        return [.. result];
    }

    public static long[] Union(long[] a, long[] b)
    {
        if (a.Length == 0)
            return b;
        if (b.Length == 0)
            return a;
        var result = new List<long>(a.Length + b.Length);
        int i = 0, j = 0;
        while (i < a.Length && j < b.Length)
        {
            if (a[i] < b[j])
                result.Add(a[i++]);
            else if (a[i] > b[j])
                result.Add(b[j++]);
            else
            {
                result.Add(a[i++]);
                j++;
            }
        }
        while (i < a.Length)
            result.Add(a[i++]);
        while (j < b.Length)
            result.Add(b[j++]);
        return [.. result];
    }

    public static long[] Except(long[] a, long[] b)
    {
        if (a.Length == 0 || b.Length == 0)
            return a;
        var result = new List<long>(a.Length);
        var j = 0;
        foreach (var id in a)
        {
            while (j < b.Length && b[j] < id)
                j++;
            if (j >= b.Length || b[j] != id)
                result.Add(id);
        }
        return [.. result];
    }
}
