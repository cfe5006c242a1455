#pragma warning disable CA1304, CA1311, CA1862 // the shapes are written as users write them
using System.Globalization;
using System.Linq.Expressions;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// Predicates generated as trees (<c>&amp;&amp;</c>, <c>||</c>, <c>!</c> over some fifty kinds of condition on every member
/// kind: nullable numbers, strings with Lucene syntax and combining characters, enums, decimals, doubles that one
/// double holds, instants, longs past 2^53, collections, a nested object and a collection of objects), run alone and
/// with generated orderings and paging, against LINQ to Objects over the same items. Every answer is the oracle's or a
/// <see cref="NotSupportedException"/>, which is counted and must stay rare: a generator that only reaches refusals
/// tests nothing.
/// </summary>
public sealed class GeneratedPredicateDifferentialTests
{
    public enum E { A, B, C }
    public sealed class Inner { public int? I { get; set; } public string? S { get; set; } }
    public sealed class Item
    {
        public string? Id { get; set; }
        public int N { get; set; }
        public int? NN { get; set; }
        public string? S { get; set; }
        public bool B { get; set; }
        public bool? NB { get; set; }
        public E En { get; set; }
        public E? NE { get; set; }
        public decimal D { get; set; }
        public double W { get; set; }
        public DateTime T { get; set; }
        public DateTime? NT { get; set; }
        public long L { get; set; }
        public List<string> Tags { get; set; } = [];
        public List<int> Nums { get; set; } = [];
        public Inner? In { get; set; }
        public List<Inner> Ins { get; set; } = [];
    }

    private static readonly string?[] Strs = [null, "", "a", "A", "ab", "b", "B", "ba", "é", "e\u0301", "10", "9", "a b", "a*", "x:y", "\\", "\""];
    private static readonly DateTime T0 = new(2021, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private static List<Item> Make(Random r, int count) => [.. Enumerable.Range(0, count).Select(_ => new Item
    {
        N = r.Next(-3, 4),
        NN = r.Next(3) == 0 ? null : r.Next(-2, 3),
        S = Strs[r.Next(Strs.Length)],
        B = r.Next(2) == 0,
        NB = r.Next(3) switch { 0 => null, 1 => true, _ => false },
        En = (E)r.Next(3),
        NE = r.Next(4) == 0 ? null : (E)r.Next(3),
        D = r.Next(5) switch { 0 => 0m, 1 => 1.5m, 2 => -2.25m, 3 => 1.50m, _ => r.Next(-3, 4) },
        W = r.Next(5) switch { 0 => 0.1 + 0.2, 1 => 0.3, 2 => -1.5, 3 => 1e-300, _ => r.Next(-3, 4) },
        T = T0.AddHours(r.Next(0, 5)).AddTicks(r.Next(2)),
        NT = r.Next(3) == 0 ? null : T0.AddHours(r.Next(0, 5)),
        L = r.Next(4) switch { 0 => long.MaxValue, 1 => 9007199254740993, 2 => 9007199254740992, _ => r.Next(-3, 4) },
        Tags = [.. Enumerable.Range(0, r.Next(4)).Select(_ => Strs[r.Next(1, Strs.Length)]!)],
        Nums = [.. Enumerable.Range(0, r.Next(4)).Select(_ => r.Next(-2, 3))],
        In = r.Next(3) == 0 ? null : new Inner { I = r.Next(3) == 0 ? null : r.Next(0, 3), S = Strs[r.Next(Strs.Length)] },
        Ins = [.. Enumerable.Range(0, r.Next(3)).Select(_ => new Inner { I = r.Next(0, 3), S = Strs[r.Next(1, Strs.Length)] })],
    })];

    private static Expression<Func<Item, bool>> Leaf(Random r)
    {
        var n = r.Next(-3, 4);
        var n2 = r.Next(-3, 4);
        var s = Strs[r.Next(1, Strs.Length)]!;
        var ns = Strs[r.Next(Strs.Length)];
        var e = (E)r.Next(3);
        var d = new[] { 0m, 1.5m, -2.25m, 1m, 2m }[r.Next(5)];
        var w = new[] { 0.3, 0.1 + 0.2, -1.5, 0.0, 1e-300, 1.0 }[r.Next(6)];
        var t = T0.AddHours(r.Next(0, 5));
        var l = new[] { 9007199254740992L, 9007199254740993L, long.MaxValue, 0L, 2L }[r.Next(5)];
        var arr = Enumerable.Range(0, r.Next(0, 3)).Select(_ => r.Next(-3, 4)).ToArray();
        var sarr = Enumerable.Range(0, r.Next(0, 3)).Select(_ => Strs[r.Next(Strs.Length)]).ToArray();
        return r.Next(48) switch
        {
            0 => x => x.N == n, 1 => x => x.N != n, 2 => x => x.N < n, 3 => x => x.N >= n,
            4 => x => x.NN == n, 5 => x => x.NN != n, 6 => x => x.NN > n, 7 => x => x.NN == null, 8 => x => x.NN.HasValue,
            9 => x => x.S == ns, 10 => x => x.S != ns, 11 => x => x.S != null && x.S.StartsWith(s, StringComparison.Ordinal),
            12 => x => x.S != null && x.S.EndsWith(s, StringComparison.Ordinal), 13 => x => x.S != null && x.S.Contains(s, StringComparison.Ordinal),
            14 => r.Next(2) == 0 ? x => string.Compare(x.S, s, StringComparison.Ordinal) > 0 : x => string.Compare(x.S, s, StringComparison.Ordinal) <= 0, 15 => x => x.S != null && x.S.StartsWith(s, StringComparison.OrdinalIgnoreCase),
            16 => x => x.B, 17 => x => !x.B, 18 => x => x.NB == true, 19 => x => x.NB == false, 20 => x => x.NB == null,
            21 => x => x.En == e, 22 => x => x.En != e, 23 => x => x.En > e, 24 => x => x.NE == e, 25 => x => x.NE != e, 26 => x => x.NE == null,
            27 => x => x.D == d, 28 => x => x.D > d, 29 => x => x.D <= d,
            30 => x => x.W == w, 31 => x => x.W < w, 32 => x => x.W >= w,
            33 => x => x.T >= t, 34 => x => x.T < t, 35 => x => x.NT == null, 36 => x => x.NT > t,
            37 => x => x.Tags.Contains(s), 38 => x => x.Tags.Any(), 39 => x => x.Tags.Count >= 2, 40 => x => x.Tags.Any(g => g == s),
            41 => x => x.Nums.Contains(n), 42 => x => x.Nums.Any(v => v > n), 43 => x => arr.Contains(x.N),
            44 => x => sarr.Contains(x.S), 45 => x => x.In != null && x.In.I == n, 46 => x => x.In == null || x.In.S == ns,
            _ => r.Next(8) switch
            {
                0 => x => x.L == l,
                1 => x => x.L > l,
                2 => x => x.Ins.Any(i => i.S == s),
                3 => x => x.Ins.Any(i => i.I > n),
                4 => x => x.Nums.Any(v => v > n && v <= n2),
                5 => x => x.Ins.Any(i => i.I >= n && i.I < n2),
                6 => x => x.Nums.Any(v => n <= v && v >= n2),
                _ => x => x.Nums.Any(v => v == n && v < n2 + 1),
            },
        };
    }

    private sealed class Rebind(ParameterExpression from, ParameterExpression to) : ExpressionVisitor
    {
        protected override Expression VisitParameter(ParameterExpression node) => node == from ? to : node;
    }

    /// <summary>A predicate as text with its captured values written in, for a failure's message.</summary>
    private sealed class Readable : ExpressionVisitor
    {
        public static string Of(Expression expression) => new Readable().Visit(expression)!.ToString();

        protected override Expression VisitMember(MemberExpression node) =>
            node.Expression is ConstantExpression { Value: { } closure } && node.Member is System.Reflection.FieldInfo field
                ? Expression.Constant(field.GetValue(closure), node.Type)
                : base.VisitMember(node);
    }

    private static Expression<Func<Item, bool>> Tree(Random r, int depth)
    {
        if (depth == 0 || r.Next(3) == 0)
            return Leaf(r);
        var a = Tree(r, depth - 1);
        switch (r.Next(5))
        {
            case 0:
                return Expression.Lambda<Func<Item, bool>>(Expression.Not(a.Body), a.Parameters);
            case 1: case 2:
            {
                var b = Tree(r, depth - 1);
                return Expression.Lambda<Func<Item, bool>>(Expression.AndAlso(a.Body, new Rebind(b.Parameters[0], a.Parameters[0]).Visit(b.Body)), a.Parameters);
            }
            default:
            {
                var b = Tree(r, depth - 1);
                return Expression.Lambda<Func<Item, bool>>(Expression.OrElse(a.Body, new Rebind(b.Parameters[0], a.Parameters[0]).Visit(b.Body)), a.Parameters);
            }
        }
    }

    /// <summary>Stores the items; returns them as a reader of their JSON gets them (ids assigned), the oracle's data.</summary>
    private static List<Item> Store(RavenStore store, List<Item> items)
    {
        using var session = store.OpenSession();
        foreach (var item in items)
            session.Store(item);
        session.SaveChanges();
        return [.. items.Select(item => Newtonsoft.Json.JsonConvert.DeserializeObject<Item>(Newtonsoft.Json.JsonConvert.SerializeObject(item))!)];
    }

    /// <summary>An ordering by one of twelve members, for the store's query and for LINQ to Objects (<c>AsQueryable()</c>) alike.</summary>
    private static IOrderedQueryable<Item> Order(IQueryable<Item> q, int key, bool desc) => key switch
    {
        0 => desc ? q.OrderByDescending(x => x.N) : q.OrderBy(x => x.N),
        1 => desc ? q.OrderByDescending(x => x.NN) : q.OrderBy(x => x.NN),
        2 => desc ? q.OrderByDescending(x => x.S) : q.OrderBy(x => x.S),
        3 => desc ? q.OrderByDescending(x => x.En) : q.OrderBy(x => x.En),
        4 => desc ? q.OrderByDescending(x => x.NE) : q.OrderBy(x => x.NE),
        5 => desc ? q.OrderByDescending(x => x.D) : q.OrderBy(x => x.D),
        6 => desc ? q.OrderByDescending(x => x.W) : q.OrderBy(x => x.W),
        7 => desc ? q.OrderByDescending(x => x.T) : q.OrderBy(x => x.T),
        8 => desc ? q.OrderByDescending(x => x.NT) : q.OrderBy(x => x.NT),
        9 => desc ? q.OrderByDescending(x => x.B) : q.OrderBy(x => x.B),
        10 => desc ? q.OrderByDescending(x => x.NB) : q.OrderBy(x => x.NB),
        _ => desc ? q.OrderByDescending(x => x.L) : q.OrderBy(x => x.L),
    };

    private static IOrderedQueryable<Item> Then(IOrderedQueryable<Item> q, int key, bool desc) => key switch
    {
        0 => desc ? q.ThenByDescending(x => x.N) : q.ThenBy(x => x.N),
        1 => desc ? q.ThenByDescending(x => x.NN) : q.ThenBy(x => x.NN),
        2 => desc ? q.ThenByDescending(x => x.S) : q.ThenBy(x => x.S),
        3 => desc ? q.ThenByDescending(x => x.NE) : q.ThenBy(x => x.NE),
        4 => desc ? q.ThenByDescending(x => x.D) : q.ThenBy(x => x.D),
        _ => desc ? q.ThenByDescending(x => x.NT) : q.ThenBy(x => x.NT),
    };

    [Theory]
    [InlineData(false, 5)]
    [InlineData(true, 6)]
    public async Task Generated_predicates_with_orderings_and_paging_match_LINQ_to_Objects(bool remote, int seed)
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        var r = new Random(seed);
        var oracle = Store(store, Make(r, 400));
        var failures = new List<string>();
        var (refused, answered) = (0, 0);
        using var session = store.OpenSession();
        for (var i = 0; i < 200; i++)
        {
            var predicate = Tree(r, 2);
            var (k1, d1, k2, d2, two) = (r.Next(12), r.Next(2) == 0, r.Next(6), r.Next(2) == 0, r.Next(2) == 0);
            var (skip, take) = (r.Next(3) == 0 ? r.Next(0, 50) : 0, r.Next(3) == 0 ? r.Next(0, 60) : 1000);
            var o = Order(oracle.AsQueryable().Where(predicate), k1, d1);
            if (two) o = Then(o, k2, d2);
            var expected = o.ThenBy(x => x.Id, StringComparer.Ordinal).Skip(skip).Take(take).Select(x => x.Id).ToList();
            try
            {
                var q = Order(session.Query<Item>().Where(predicate).WaitForNonStaleResults(TimeSpan.FromMinutes(1)), k1, d1);
                if (two) q = Then(q, k2, d2);
                var actual = q.ThenBy(x => x.Id, StringComparer.Ordinal).Skip(skip).Take(take).ToList().Select(x => x.Id).ToList();
                answered++;
                if (!expected.SequenceEqual(actual))
                    failures.Add($"order {k1}{(d1 ? " desc" : "")}{(two ? $" then {k2}{(d2 ? " desc" : "")}" : "")}, skip {skip}, take {take}, {Readable.Of(predicate)}: " +
                                 $"first difference at {expected.Zip(actual).TakeWhile(p => p.First == p.Second).Count()} of {expected.Count} ({actual.Count} returned)");
            }
            catch (NotSupportedException)
            {
                refused++;
            }
        }
        Assert.True(failures.Count == 0, string.Join("\n", failures.Take(10)));
        Assert.True(refused < answered / 20, $"{refused} refused of {refused + answered}");
    }

    [Theory]
    [InlineData(false, 1)]
    [InlineData(true, 2)]
    public async Task Generated_predicates_match_LINQ_to_Objects(bool remote, int seed)
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        await using StoreFixture fixture = remote ? await RemoteStoreFixture.StartAsync() : EmbeddedStoreFixture.Start();
        using var store = fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        var r = new Random(seed);
        var oracle = Store(store, Make(r, 400));
        var failures = new List<string>();
        var (refused, answered) = (0, 0);
        using var session = store.OpenSession();
        for (var i = 0; i < 300; i++)
        {
            var predicate = Tree(r, 3);
            var compiled = predicate.Compile();
            var expected = oracle.Where(compiled).Select(x => x.Id).Order(StringComparer.Ordinal).ToList();
            try
            {
                var actual = session.Query<Item>().Where(predicate).WaitForNonStaleResults(TimeSpan.FromMinutes(1)).Take(1000).ToList().Select(x => x.Id).Order(StringComparer.Ordinal).ToList();
                answered++;
                if (!expected.SequenceEqual(actual))
                    failures.Add($"{Readable.Of(predicate)}: expected {expected.Count} ({string.Join(",", expected.Except(actual).Take(3))} missing), got {actual.Count} ({string.Join(",", actual.Except(expected).Take(3))} extra)");
            }
            catch (NotSupportedException)
            {
                refused++;
            }
        }
        Assert.True(failures.Count == 0, string.Join("\n", failures.Take(10)));
        Assert.True(refused < answered / 20, $"{refused} refused of {refused + answered}");
    }
}
