using System.Linq.Expressions;
using System.Reflection;

namespace RavenLite.Client.Copying;

/// <summary>
/// Turns the plans of one entity type into compiled delegates (expression trees): per class, a copy that creates it
/// and assigns each member (collections copied, leaves shared), and a comparison of the same members.
/// </summary>
internal sealed class CopierCompiler
{
    private static readonly MethodInfo s_sameLeaf = typeof(LeafTypes).GetMethod(nameof(LeafTypes.Same))!;
    private readonly IReadOnlyDictionary<Type, ObjectPlan?> _plans;
    private readonly Dictionary<Type, ObjectCopier> _copiers = [];

    private CopierCompiler(IReadOnlyDictionary<Type, ObjectPlan?> plans) => _plans = plans;

    /// <summary>The copier of <paramref name="root"/>, with those of every class it reaches.</summary>
    public static ObjectCopier Compile(Type root, IReadOnlyDictionary<Type, ObjectPlan?> plans)
    {
        var compiler = new CopierCompiler(plans);
        foreach (var type in plans.Keys)
            compiler._copiers[type] = (ObjectCopier)Activator.CreateInstance(typeof(ObjectCopier<>).MakeGenericType(type))!;
        foreach (var (type, plan) in plans)
        {
            typeof(CopierCompiler).GetMethod(nameof(Fill), BindingFlags.Instance | BindingFlags.NonPublic)!
                .MakeGenericMethod(type).Invoke(compiler, [plan!]);
        }
        return compiler._copiers[root];
    }

    private void Fill<T>(ObjectPlan plan) where T : class
    {
        var copier = (ObjectCopier<T>)_copiers[typeof(T)];
        var source = Expression.Parameter(typeof(T), "source");
        var copy = Expression.Variable(typeof(T), "copy");
        var body = new List<Expression> { Expression.Assign(copy, Expression.New(typeof(T))) };
        foreach (var member in plan.Members)
            body.Add(Expression.Assign(Expression.MakeMemberAccess(copy, member.Member), CopyValue(member.Shape, Expression.MakeMemberAccess(source, member.Member))));
        body.Add(copy);
        copier.CopyMembers = Expression.Lambda<Func<T, T>>(Expression.Block([copy], body), source).Compile();

        var a = Expression.Parameter(typeof(T), "a");
        var b = Expression.Parameter(typeof(T), "b");
        Expression same = Expression.Constant(true);
        for (var i = plan.Members.Count - 1; i >= 0; i--)
        {
            var member = plan.Members[i].Member;
            same = Expression.AndAlso(SameValue(plan.Members[i].Shape, Expression.MakeMemberAccess(a, member), Expression.MakeMemberAccess(b, member)), same);
        }
        copier.SameMembers = Expression.Lambda<Func<T, T, bool>>(same, a, b).Compile();
    }

    private Expression CopyValue(ValueShape shape, Expression value) => shape switch
    {
        LeafShape => value,
        ObjectShape => Expression.Call(Expression.Constant(_copiers[shape.Type]), CopierMethod(shape.Type, "CopyOrNull"), value),
        ArrayShape array => Call(nameof(CollectionCopies.CopyArray), [array.Element.Type], value, ElementCopier(array.Element)),
        ListShape list => Call(nameof(CollectionCopies.CopyList), [list.Element.Type], value, ElementCopier(list.Element)),
        SetShape set => Call(nameof(CollectionCopies.CopySet), [set.Element], value),
        DictionaryShape map => Call(nameof(CollectionCopies.CopyDictionary), [map.Key, map.Value.Type], value, ElementCopier(map.Value)),
        _ => throw Unexpected(shape),
    };

    private MethodCallExpression SameValue(ValueShape shape, Expression a, Expression b) => shape switch
    {
        LeafShape => Expression.Call(s_sameLeaf.MakeGenericMethod(shape.Type), a, b),
        ObjectShape => Expression.Call(Expression.Constant(_copiers[shape.Type]), CopierMethod(shape.Type, "SameOrNull"), a, b),
        ArrayShape array => Call(nameof(CollectionCopies.SameArray), [array.Element.Type], a, b, ElementComparer(array.Element)),
        ListShape list => Call(nameof(CollectionCopies.SameList), [list.Element.Type], a, b, ElementComparer(list.Element)),
        SetShape set => Call(nameof(CollectionCopies.SameSet), [set.Element], a, b),
        DictionaryShape map => Call(nameof(CollectionCopies.SameDictionary), [map.Key, map.Value.Type], a, b, ElementComparer(map.Value)),
        _ => throw Unexpected(shape),
    };

    /// <summary>The copy of one element as a delegate; a null constant for leaves, which are shared.</summary>
    private ConstantExpression ElementCopier(ValueShape element)
    {
        var delegateType = typeof(Func<,>).MakeGenericType(element.Type, element.Type);
        if (element is LeafShape)
            return Expression.Constant(null, delegateType);
        if (element is ObjectShape)
            return Expression.Constant(Delegate.CreateDelegate(delegateType, _copiers[element.Type], CopierMethod(element.Type, "CopyOrNull")), delegateType);
        var item = Expression.Parameter(element.Type, "item");
        return Expression.Constant(Expression.Lambda(delegateType, CopyValue(element, item), item).Compile(), delegateType);
    }

    private ConstantExpression ElementComparer(ValueShape element)
    {
        var delegateType = typeof(Func<,,>).MakeGenericType(element.Type, element.Type, typeof(bool));
        if (element is LeafShape)
            return Expression.Constant(Delegate.CreateDelegate(delegateType, s_sameLeaf.MakeGenericMethod(element.Type)), delegateType);
        if (element is ObjectShape)
            return Expression.Constant(Delegate.CreateDelegate(delegateType, _copiers[element.Type], CopierMethod(element.Type, "SameOrNull")), delegateType);
        var a = Expression.Parameter(element.Type, "a");
        var b = Expression.Parameter(element.Type, "b");
        return Expression.Constant(Expression.Lambda(delegateType, SameValue(element, a, b), a, b).Compile(), delegateType);
    }

    private static MethodInfo CopierMethod(Type type, string name) => typeof(ObjectCopier<>).MakeGenericType(type).GetMethod(name)!;

    private static MethodCallExpression Call(string name, Type[] typeArguments, params Expression[] arguments) =>
        Expression.Call(typeof(CollectionCopies), name, typeArguments, arguments);

    private static InvalidOperationException Unexpected(ValueShape shape) => new($"No copy for the shape {shape}.");
}
