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
    private const int MaxInlineDepth = 3;
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
        var inlining = new HashSet<Type> { typeof(T) };
        var body = new List<Expression> { Expression.Assign(copy, Expression.New(typeof(T))) };
        foreach (var member in plan.Members)
            body.Add(Expression.Assign(Expression.MakeMemberAccess(copy, member.Member), CopyValue(member.Shape, Expression.MakeMemberAccess(source, member.Member), inlining)));
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

    /// <summary>
    /// The copy of a member's value. Nested classes and collections of them are copied inline (a loop over the
    /// elements, each created and assigned in place) rather than through a delegate per element: the copy is most of
    /// a warm typed read. A class already being inlined (a type that refers to itself) goes through its copier.
    /// </summary>
    private Expression CopyValue(ValueShape shape, Expression value, HashSet<Type> inlining) => shape switch
    {
        LeafShape => value,
        ObjectShape => CopyObject(shape.Type, value, inlining),
        ArrayShape { Element: not LeafShape } array => CopyArrayInline(array, value, inlining),
        ListShape { Element: not LeafShape } list => CopyListInline(list, value, inlining),
        ArrayShape array => Call(nameof(CollectionCopies.CopyArray), [array.Element.Type], value, ElementCopier(array.Element)),
        ListShape list => Call(nameof(CollectionCopies.CopyList), [list.Element.Type], value, ElementCopier(list.Element)),
        SetShape set => Call(nameof(CollectionCopies.CopySet), [set.Element], value),
        DictionaryShape map => Call(nameof(CollectionCopies.CopyDictionary), [map.Key, map.Value.Type], value, ElementCopier(map.Value)),
        _ => throw Unexpected(shape),
    };

    /// <summary>
    /// <c>value is null ? null : new T { members copied }</c>; through the type's copier when it is already being
    /// inlined or the nesting is deep (a type used by many members would otherwise be expanded many times over).
    /// </summary>
    private Expression CopyObject(Type type, Expression value, HashSet<Type> inlining)
    {
        if (inlining.Contains(type) || inlining.Count >= MaxInlineDepth || _plans[type] is not { } plan)
            return Expression.Call(Expression.Constant(_copiers[type]), CopierMethod(type, "CopyOrNull"), value);
        inlining.Add(type);
        var source = Expression.Variable(type, "nested");
        var copy = Expression.Variable(type, "nestedCopy");
        var body = new List<Expression> { Expression.Assign(copy, Expression.New(type)) };
        foreach (var member in plan.Members)
            body.Add(Expression.Assign(Expression.MakeMemberAccess(copy, member.Member), CopyValue(member.Shape, Expression.MakeMemberAccess(source, member.Member), inlining)));
        body.Add(copy);
        inlining.Remove(type);
        return Expression.Block(type, [source],
            Expression.Assign(source, value),
            Expression.Condition(Expression.Equal(source, Expression.Constant(null, type)), Expression.Constant(null, type),
                Expression.Block(type, [copy], body)));
    }

    private BlockExpression CopyListInline(ListShape list, Expression value, HashSet<Type> inlining)
    {
        var element = list.Element.Type;
        var source = Expression.Variable(list.Type, "list");
        var copy = Expression.Variable(list.Type, "listCopy");
        var count = Expression.Variable(typeof(int), "count");
        var i = Expression.Variable(typeof(int), "i");
        var done = Expression.Label("done");
        var item = Expression.Property(source, list.Type.GetProperty("Item")!, i);
        return Expression.Block(list.Type, [source],
            Expression.Assign(source, value),
            Expression.Condition(Expression.Equal(source, Expression.Constant(null, list.Type)), Expression.Constant(null, list.Type),
                Expression.Block(list.Type, [copy, count, i],
                    Expression.Assign(count, Expression.Property(source, nameof(List<object>.Count))),
                    Expression.Assign(copy, Expression.New(list.Type.GetConstructor([typeof(int)])!, count)),
                    Expression.Assign(i, Expression.Constant(0)),
                    Expression.Loop(
                        Expression.IfThenElse(Expression.LessThan(i, count),
                            Expression.Block(
                                Expression.Call(copy, list.Type.GetMethod(nameof(List<object>.Add), [element])!, CopyValue(list.Element, item, inlining)),
                                Expression.PreIncrementAssign(i)),
                            Expression.Break(done)),
                        done),
                    copy)));
    }

    private BlockExpression CopyArrayInline(ArrayShape array, Expression value, HashSet<Type> inlining)
    {
        var source = Expression.Variable(array.Type, "array");
        var copy = Expression.Variable(array.Type, "arrayCopy");
        var count = Expression.Variable(typeof(int), "count");
        var i = Expression.Variable(typeof(int), "i");
        var done = Expression.Label("done");
        return Expression.Block(array.Type, [source],
            Expression.Assign(source, value),
            Expression.Condition(Expression.Equal(source, Expression.Constant(null, array.Type)), Expression.Constant(null, array.Type),
                Expression.Block(array.Type, [copy, count, i],
                    Expression.Assign(count, Expression.ArrayLength(source)),
                    Expression.Assign(copy, Expression.NewArrayBounds(array.Element.Type, count)),
                    Expression.Assign(i, Expression.Constant(0)),
                    Expression.Loop(
                        Expression.IfThenElse(Expression.LessThan(i, count),
                            Expression.Block(
                                Expression.Assign(Expression.ArrayAccess(copy, i), CopyValue(array.Element, Expression.ArrayIndex(source, i), inlining)),
                                Expression.PreIncrementAssign(i)),
                            Expression.Break(done)),
                        done),
                    copy)));
    }

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
        return Expression.Constant(Expression.Lambda(delegateType, CopyValue(element, item, []), item).Compile(), delegateType);
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
