namespace RavenLite.Client.Copying;

/// <summary>
/// The immutable types a copy may share with its original, and how two of their values compare for change tracking:
/// equal only when they serialize the same (a <see cref="DateTime"/>'s kind, a <see cref="decimal"/>'s scale and the
/// sign of a zero count).
/// </summary>
internal static class LeafTypes
{
    private static readonly HashSet<Type> s_leaves =
    [
        typeof(string), typeof(bool), typeof(char), typeof(byte), typeof(sbyte), typeof(short), typeof(ushort),
        typeof(int), typeof(uint), typeof(long), typeof(ulong), typeof(float), typeof(double), typeof(decimal),
        typeof(DateTime), typeof(DateTimeOffset), typeof(TimeSpan), typeof(DateOnly), typeof(TimeOnly), typeof(Guid),
        typeof(Uri),
    ];

    public static bool IsLeaf(Type type)
    {
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        return underlying.IsEnum || s_leaves.Contains(underlying);
    }

    /// <summary>Whether two leaf values serialize alike.</summary>
    public static bool Same<T>(T a, T b)
    {
        if (typeof(T) == typeof(string))
            return string.Equals((string?)(object?)a, (string?)(object?)b, StringComparison.Ordinal);
        if (typeof(T) == typeof(double))
            return BitConverter.DoubleToInt64Bits((double)(object)a!) == BitConverter.DoubleToInt64Bits((double)(object)b!);
        if (typeof(T) == typeof(float))
            return BitConverter.SingleToInt32Bits((float)(object)a!) == BitConverter.SingleToInt32Bits((float)(object)b!);
        if (typeof(T) == typeof(decimal))
            return SameDecimal((decimal)(object)a!, (decimal)(object)b!);
        if (typeof(T) == typeof(DateTime))
            return SameDateTime((DateTime)(object)a!, (DateTime)(object)b!);
        if (typeof(T) == typeof(DateTimeOffset))
            return ((DateTimeOffset)(object)a!).EqualsExact((DateTimeOffset)(object)b!);
        if (default(T) is null && Nullable.GetUnderlyingType(typeof(T)) is { } underlying && underlying != typeof(T))
            return a is null ? b is null : b is not null && SameBoxed(a, b, underlying);
        return EqualityComparer<T>.Default.Equals(a, b);
    }

    private static bool SameBoxed(object a, object b, Type underlying) => underlying switch
    {
        _ when underlying == typeof(double) => Same((double)a, (double)b),
        _ when underlying == typeof(float) => Same((float)a, (float)b),
        _ when underlying == typeof(decimal) => Same((decimal)a, (decimal)b),
        _ when underlying == typeof(DateTime) => Same((DateTime)a, (DateTime)b),
        _ when underlying == typeof(DateTimeOffset) => Same((DateTimeOffset)a, (DateTimeOffset)b),
        _ => a.Equals(b),
    };

    private static bool SameDecimal(decimal a, decimal b) => a == b && a.Scale == b.Scale;

    private static bool SameDateTime(DateTime a, DateTime b) => a.Ticks == b.Ticks && a.Kind == b.Kind;
}
