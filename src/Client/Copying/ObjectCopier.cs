namespace RavenLite.Client.Copying;

/// <summary>
/// The compiled copy and comparison of one entity type: <see cref="Copy"/> makes an instance that shares nothing
/// mutable with its source, <see cref="Same"/> tells whether two instances serialize alike (a fast check for change
/// tracking: "same" is trusted, "different" is confirmed by serializing).
/// </summary>
internal abstract class ObjectCopier
{
    public abstract Type Type { get; }

    /// <summary>Whether <see cref="Copy"/> hands out the original itself (a read-only type: nothing in it can change).</summary>
    public virtual bool SharesInstances => false;

    public abstract object Copy(object original);

    public abstract bool Same(object current, object original);
}

/// <summary>The compiled delegates of <typeparamref name="T"/>; filled in after creation so that types can refer to themselves.</summary>
internal sealed class ObjectCopier<T> : ObjectCopier where T : class
{
    internal Func<T, T> CopyMembers = null!;
    internal Func<T, T, bool> SameMembers = null!;

    public override Type Type => typeof(T);

    public override object Copy(object original) => CopyMembers((T)original);

    public override bool Same(object current, object original) => SameOrNull((T)current, (T)original);

    /// <summary>The copy of a member's value: null stays null.</summary>
    public T? CopyOrNull(T? value) => value is null ? null : CopyMembers(value);

    /// <summary>Both null, or both exactly <typeparamref name="T"/> (a derived instance serializes more) with the same members.</summary>
    public bool SameOrNull(T? a, T? b)
    {
        if (a is null || b is null)
            return a is null && b is null;
        return a.GetType() == typeof(T) && b.GetType() == typeof(T) && SameMembers(a, b);
    }
}

/// <summary>
/// The "copier" of a read-only type (<see cref="ReadOnlyTypes"/>): the original is handed out as it is, so every
/// session reading a version gets the one instance the cache holds; an entity that differs from its original is a
/// new instance, so reference equality is the comparison.
/// </summary>
internal sealed class SharedInstances<T> : ObjectCopier where T : class
{
    public override Type Type => typeof(T);

    public override bool SharesInstances => true;

    public override object Copy(object original) => original;

    public override bool Same(object current, object original) => ReferenceEquals(current, original);
}
