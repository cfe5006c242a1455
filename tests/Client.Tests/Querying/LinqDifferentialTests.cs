#pragma warning disable CA1865, CA1304, CA1311, CA1862 // the shapes are written as users write them
using System.Linq.Expressions;
using RavenLite.Client.Tests.Infrastructure;

namespace RavenLite.Client.Tests.Querying;

/// <summary>
/// The LINQ provider against LINQ to Objects over the same generated orders: every shape is either answered with
/// exactly the oracle's documents (and order, where it orders) or refused with a <see cref="NotSupportedException"/>.
/// Values cover DateTime with and without fractions and kinds, DateTimeOffset across offsets, unicode with emoji and
/// Lucene syntax characters, empty and long strings, nulls, extreme numbers.
/// </summary>
public abstract class LinqDifferentialTests(Func<Task<StoreFixture>> start, int seed = 28) : IAsyncLifetime
{
    public enum Status { Open, Paid, Shipped, Cancelled }

    public sealed class Line
    {
        public double Price { get; set; }
        public int Quantity { get; set; }
    }

    public sealed class Order
    {
        public string? Id { get; set; }
        public string Customer { get; set; } = "";
        public string? Note { get; set; }
        public decimal Total { get; set; }
        public double Weight { get; set; }
        public float Ratio { get; set; }
        public int Quantity { get; set; }
        public long Big { get; set; }
        public ulong Huge { get; set; }
        public int? Discount { get; set; }
        public bool Rush { get; set; }
        public Status State { get; set; }
        public DateTime PlacedAt { get; set; }
        public DateTimeOffset PlacedOffset { get; set; }
        public Guid Reference { get; set; }
        public List<string> Tags { get; set; } = [];
        public List<Line> Lines { get; set; } = [];
    }

    private const int Count = 300;
    private StoreFixture _fixture = null!;
    private RavenStore _store = null!;
    private List<Order> _orders = null!;

    public async Task InitializeAsync()
    {
        _fixture = await start();
        _store = _fixture.OpenAnotherStore(new StoreConventions { MaxNumberOfRequestsPerSession = 100_000 });
        _orders = Generate(Count, seed);
        using (var session = _store.OpenSession())
        {
            foreach (var order in _orders)
                session.Store(order);
            session.SaveChanges();
        }
        // The oracle reads what a reader of the JSON gets (ids assigned, times as stored).
        _orders = [.. _orders.Select(order => Clone(order))];
    }

    public async Task DisposeAsync()
    {
        _store.Dispose();
        await _fixture.DisposeAsync();
    }

    private static Order Clone(Order order) =>
        Newtonsoft.Json.JsonConvert.DeserializeObject<Order>(Newtonsoft.Json.JsonConvert.SerializeObject(order))!;

    private static readonly string[] Words =
    [
        "Bob", "bob", "BOB", "alice", "Ålesund", "straße", "😀 smile", "😀", "a:b", "a*b", "(paren)", "quote\"d", "back\\slash",
        "space here", "", "x-y", "+plus", "[bracket]", "{brace}", "~tilde", "?q", "/slash", "日本語", "ǅ title",
        new string('L', 600), new string('L', 600) + "!", new string('é', 20000), new string('é', 20000) + "z",
    ];

    /// <summary>Whether a customer is longer than an index term keeps (16 KiB of UTF-8): its field refuses EndsWith and Contains.</summary>
    private bool HoldsLongCustomer => _orders.Any(o => System.Text.Encoding.UTF8.GetByteCount(o.Customer) > 16 * 1024);

    private static List<Order> Generate(int count, int seed)
    {
        var random = new Random(seed);
        var baseTime = new DateTime(2020, 1, 1, 8, 0, 0, DateTimeKind.Utc);
        var orders = new List<Order>(count);
        for (var i = 0; i < count; i++)
        {
            var time = baseTime.AddMinutes(random.Next(0, 5) * 30);
            time = random.Next(3) switch
            {
                0 => time,
                1 => time.AddMilliseconds(random.Next(1, 1000)),
                _ => time.AddTicks(random.Next(1, 10_000_000)),
            };
            if (random.Next(5) == 0)
                time = DateTime.SpecifyKind(time, DateTimeKind.Unspecified);
            var offset = TimeSpan.FromHours(random.Next(-12, 13));
            orders.Add(new Order
            {
                Customer = Words[random.Next(Words.Length)],
                Note = random.Next(3) == 0 ? null : Words[random.Next(Words.Length)],
                Total = random.Next(6) switch
                {
                    0 => 0m,
                    1 => decimal.MaxValue,
                    2 => -123456789.0123456789012345678m,
                    3 => 0.0000000000000000000000000001m,
                    _ => Math.Round((decimal)random.NextDouble() * 200 - 50, random.Next(0, 4)),
                },
                Weight = random.Next(6) switch
                {
                    0 => double.MaxValue,
                    1 => double.Epsilon,
                    2 => -0.0,
                    3 => 1e300,
                    _ => Math.Round(random.NextDouble() * 100, 3),
                },
                Ratio = (float)Math.Round(random.NextDouble(), 2),
                Quantity = random.Next(-3, 12),
                Big = random.Next(4) switch { 0 => long.MaxValue, 1 => long.MinValue, 2 => 9007199254740993L, _ => random.Next() },
                Huge = random.Next(3) switch { 0 => ulong.MaxValue, 1 => (ulong)long.MaxValue + 1, _ => (ulong)random.Next() },
                Discount = random.Next(3) == 0 ? null : random.Next(0, 50),
                Rush = random.Next(2) == 0,
                State = (Status)random.Next(4),
                PlacedAt = time,
                PlacedOffset = new DateTimeOffset(DateTime.SpecifyKind(time, DateTimeKind.Unspecified), offset),
                Reference = new Guid(random.Next(4), 0, 0, [0, 0, 0, 0, 0, 0, 0, 1]),
                Tags = [.. Enumerable.Range(0, random.Next(0, 4)).Select(_ => Words[random.Next(12)])],
                Lines = [.. Enumerable.Range(0, random.Next(0, 4)).Select(_ => new Line { Price = random.Next(0, 100), Quantity = random.Next(0, 10) })],
            });
        }
        return orders;
    }

    /// <summary>The shapes: each a predicate as a user writes it.</summary>
    private IEnumerable<(string Name, Expression<Func<Order, bool>> Predicate)> Shapes()
    {
        var sample = _orders.Take(12).ToList();
        foreach (var o in sample.Take(6))
        {
            var customer = o.Customer;
            var head = customer.Length > 2 ? customer[..2] : customer;
            var tail = customer.Length > 2 ? customer[^2..] : customer;
            var middle = customer.Length > 3 ? customer[1..3] : customer;
            var total = o.Total;
            var weight = o.Weight;
            var ratio = o.Ratio;
            var quantity = o.Quantity;
            var big = o.Big;
            var huge = o.Huge;
            var time = o.PlacedAt;
            var utc = DateTime.SpecifyKind(o.PlacedAt, DateTimeKind.Utc);
            var offset = o.PlacedOffset;
            var state = o.State;
            var reference = o.Reference;
            yield return ("Customer ==", x => x.Customer == customer);
            yield return ("Customer !=", x => x.Customer != customer);
            yield return ("Customer Equals OrdinalIgnoreCase", x => x.Customer.Equals(customer, StringComparison.OrdinalIgnoreCase));
            yield return ("Customer StartsWith", x => x.Customer.StartsWith(head, StringComparison.Ordinal));
            yield return ("Customer EndsWith", x => x.Customer.EndsWith(tail, StringComparison.Ordinal));
            yield return ("Customer Contains", x => x.Customer.Contains(middle, StringComparison.Ordinal));
            yield return ("Total ==", x => x.Total == total);
            yield return ("Total <", x => x.Total < total);
            yield return ("Total >=", x => x.Total >= total);
            yield return ("Weight ==", x => x.Weight == weight);
            yield return ("Weight >", x => x.Weight > weight);
            yield return ("Weight <=", x => x.Weight <= weight);
            yield return ("Ratio ==", x => x.Ratio == ratio);
            yield return ("Ratio >", x => x.Ratio > ratio);
            yield return ("Quantity ==", x => x.Quantity == quantity);
            yield return ("Quantity >", x => x.Quantity > quantity);
            yield return ("Big ==", x => x.Big == big);
            yield return ("Big <", x => x.Big < big);
            yield return ("Huge ==", x => x.Huge == huge);
            yield return ("Huge >=", x => x.Huge >= huge);
            yield return ("PlacedAt ==", x => x.PlacedAt == utc);
            yield return ("PlacedAt > (as stored)", x => x.PlacedAt > time);
            yield return ("PlacedAt >=", x => x.PlacedAt >= utc);
            yield return ("PlacedAt whole second ==", x => x.PlacedAt == new DateTime(utc.Year, utc.Month, utc.Day, utc.Hour, utc.Minute, utc.Second, DateTimeKind.Utc));
            yield return ("PlacedOffset ==", x => x.PlacedOffset == offset);
            yield return ("PlacedOffset == other offset", x => x.PlacedOffset == offset.ToOffset(TimeSpan.FromHours(5)));
            yield return ("PlacedOffset <", x => x.PlacedOffset < offset);
            yield return ("State ==", x => x.State == state);
            yield return ("State >", x => x.State > state);
            yield return ("Reference ==", x => x.Reference == reference);
            yield return ("Tags.Contains", x => x.Tags.Contains(customer));
            yield return ("Tags.Any(==)", x => x.Tags.Any(t => t == customer));
            yield return ("!Tags.Contains", x => !x.Tags.Contains(customer));
            yield return ("ids.Contains(Customer)", x => new[] { customer, "Bob", "nobody" }.Contains(x.Customer));
            var low = total > decimal.MinValue + 10 ? total - 10 : total;
            var high = total < decimal.MaxValue - 10 ? total + 10 : total;
            yield return ("Total range", x => x.Total > low && x.Total <= high);
            yield return ("Customer or Quantity", x => x.Customer == customer || x.Quantity == quantity);
            yield return ("not (Quantity > q)", x => !(x.Quantity > quantity));
        }
        yield return ("Note == null", x => x.Note == null);
        yield return ("Note != null", x => x.Note != null);
        yield return ("IsNullOrEmpty(Note)", x => string.IsNullOrEmpty(x.Note));
        yield return ("Customer == empty", x => x.Customer == "");
        yield return ("Discount == null", x => x.Discount == null);
        yield return ("Discount.HasValue", x => x.Discount.HasValue);
        yield return ("!Discount.HasValue", x => !x.Discount.HasValue);
        yield return ("Discount.Value > 40", x => x.Discount.HasValue && x.Discount.Value > 40);
        yield return ("Discount > 10", x => x.Discount > 10);
        yield return ("Discount != 5", x => x.Discount != 5);
        yield return ("Rush", x => x.Rush);
        yield return ("!Rush", x => !x.Rush);
        yield return ("Rush == false", x => x.Rush == false);
        yield return ("Tags.Any()", x => x.Tags.Any());
        yield return ("!Tags.Any()", x => !x.Tags.Any());
        yield return ("Tags.Count > 2", x => x.Tags.Count > 2);
        yield return ("Tags.Count == 0", x => x.Tags.Count == 0);
        yield return ("Tags.Count() >= 1", x => x.Tags.Count() >= 1);
        yield return ("Lines.Any(Price > 50)", x => x.Lines.Any(l => l.Price > 50));
        yield return ("Lines.Any(Price > 50 || Price < 5)", x => x.Lines.Any(l => l.Price > 50 || l.Price < 5));
        yield return ("Lines.Any(Price > 50 && Quantity >= 8)", x => x.Lines.Any(l => l.Price > 50 && l.Quantity >= 8));
        yield return ("Lines.Any(Quantity == 3)", x => x.Lines.Any(l => l.Quantity == 3));
        yield return ("Customer emoji StartsWith", x => x.Customer.StartsWith("😀", StringComparison.Ordinal));
        yield return ("Customer StartsWith *", x => x.Customer.StartsWith("*", StringComparison.Ordinal));
        yield return ("Customer StartsWith a*", x => x.Customer.StartsWith("a*", StringComparison.Ordinal));
        yield return ("Customer long ==", x => x.Customer == new string('L', 600));
        yield return ("Customer very long ==", x => x.Customer == new string('é', 20000));
        yield return ("Customer.Length > 10", x => x.Customer.Length > 10);
        yield return ("PlacedAt.Year == 2020", x => x.PlacedAt.Year == 2020);
        yield return ("Total >= 0 and Rush and State != Paid", x => x.Total >= 0 && x.Rush && x.State != Status.Paid);
        yield return ("Weight == MaxValue", x => x.Weight == double.MaxValue);
        yield return ("Weight == -0.0", x => x.Weight == 0.0);
        yield return ("Big == long.MinValue", x => x.Big == long.MinValue);
        yield return ("Total == decimal.MaxValue", x => x.Total == decimal.MaxValue);
        yield return ("Huge == ulong.MaxValue", x => x.Huge == ulong.MaxValue);
        yield return ("Total == smallest decimal", x => x.Total == 0.0000000000000000000000000001m);
        yield return ("Ids empty Contains", x => Array.Empty<string>().Contains(x.Customer));
        yield return ("ordinal Compare > 0", x => string.Compare(x.Customer, "b", StringComparison.Ordinal) > 0);
    }

    /// <summary>
    /// More shapes as users write them: culture-default string overloads, arithmetic on members, computed members,
    /// ternaries, <c>All</c>, element access, constant predicates. Each is answered as LINQ to Objects answers it or
    /// refused with <see cref="NotSupportedException"/>; none may throw anything else or answer wrong.
    /// </summary>
    private static IEnumerable<(string Name, Expression<Func<Order, bool>> Predicate)> MoreShapes()
    {
        var t = new DateTime(2020, 1, 1, 9, 0, 0);
        var tu = new DateTime(2020, 1, 1, 9, 0, 0, DateTimeKind.Utc);
        yield return ("Contains char", x => x.Customer.Contains('b'));
        yield return ("StartsWith IgnoreCase", x => x.Customer.StartsWith("b", StringComparison.OrdinalIgnoreCase));
        yield return ("EndsWith IgnoreCase", x => x.Customer.EndsWith("OB", StringComparison.OrdinalIgnoreCase));
        yield return ("Contains IgnoreCase", x => x.Customer.Contains("LI", StringComparison.OrdinalIgnoreCase));
#pragma warning disable CA1310, CA1309, CA1304, CA1311, CA1862, CA1307, CA1866, CA1847
        yield return ("ToLower ==", x => x.Customer.ToLower() == "bob");
        yield return ("ToUpperInvariant ==", x => x.Customer.ToUpperInvariant() == "BOB");
        yield return ("StartsWith culture", x => x.Customer.StartsWith("B"));
        yield return ("EndsWith culture", x => x.Customer.EndsWith("b"));
        yield return ("Contains plain", x => x.Customer.Contains("o"));
        yield return ("Equals plain", x => x.Customer.Equals("bob"));
        yield return ("CompareTo > 0", x => x.Customer.CompareTo("b") > 0);
        yield return ("string.Compare < 0", x => string.Compare(x.Customer, "b") < 0);
        yield return ("string.Equals static", x => string.Equals(x.Customer, "Bob"));
#pragma warning restore CA1310, CA1309, CA1307, CA1866, CA1847
        yield return ("Note == Customer", x => x.Note == x.Customer);
        yield return ("Quantity + 1 > 5", x => x.Quantity + 1 > 5);
        yield return ("Quantity * 2 == 4", x => x.Quantity * 2 == 4);
        yield return ("Quantity % 2 == 0", x => x.Quantity % 2 == 0);
        yield return ("-Quantity > 2", x => -x.Quantity > 2);
        yield return ("Total > 10.5m", x => x.Total > 10.5m);
        yield return ("(double)Total > 10.5", x => (double)x.Total > 10.5);
        yield return ("Quantity > 2.5", x => x.Quantity > 2.5);
        yield return ("Ratio > 0.5 (double)", x => x.Ratio > 0.5);
        yield return ("Ratio == 0.1f", x => x.Ratio == 0.1f);
        yield return ("Ratio <= 0.3f", x => x.Ratio <= 0.3f);
        yield return ("PlacedAt > UtcNow", x => x.PlacedAt > DateTime.UtcNow);
        yield return ("PlacedAt < unspecified 9:00", x => x.PlacedAt < t);
        yield return ("PlacedAt < utc 9:00", x => x.PlacedAt < tu);
        yield return ("PlacedAt.Date ==", x => x.PlacedAt.Date == new DateTime(2020, 1, 1));
        yield return ("PlacedAt.Hour == 8", x => x.PlacedAt.Hour == 8);
        yield return ("PlacedOffset > MinValue", x => x.PlacedOffset > DateTimeOffset.MinValue);
        yield return ("PlacedOffset.UtcDateTime > tu", x => x.PlacedOffset.UtcDateTime > tu);
        yield return ("State Paid or Open", x => x.State == Status.Paid || x.State == Status.Open);
        yield return ("(int)State == 1", x => (int)x.State == 1);
        yield return ("State.Equals(Paid)", x => x.State.Equals(Status.Paid));
        yield return ("State != Cancelled", x => x.State != Status.Cancelled);
        yield return ("Reference != Empty", x => x.Reference != Guid.Empty);
        yield return ("Discount >= 0", x => x.Discount >= 0);
        yield return ("Discount.GetValueOrDefault() > 10", x => x.Discount.GetValueOrDefault() > 10);
        yield return ("(Discount ?? 0) > 10", x => (x.Discount ?? 0) > 10);
        yield return ("Rush.Equals(true)", x => x.Rush.Equals(true));
        yield return ("Rush != true", x => x.Rush != true);
        yield return ("Rush && !Rush", x => x.Rush && !x.Rush);
        yield return ("true", x => true);
        yield return ("false", x => false);
        yield return ("Tags.Contains(Bob) && Count == 1", x => x.Tags.Contains("Bob") && x.Tags.Count == 1);
        yield return ("Tags.Any(StartsWith a)", x => x.Tags.Any(t => t.StartsWith("a", StringComparison.Ordinal)));
        yield return ("Tags.All(== bob)", x => x.Tags.All(t => t == "bob"));
        yield return ("Tags.Count(== bob) > 0", x => x.Tags.Count(t => t == "bob") > 0);
        yield return ("Tags.First() == bob", x => x.Tags.Count > 0 && x.Tags.First() == "bob");
        yield return ("Tags[0] == bob", x => x.Tags.Count > 0 && x.Tags[0] == "bob");
        yield return ("Lines.Count > 1", x => x.Lines.Count > 1);
        yield return ("Lines.Count(Price > 5) >= 1", x => x.Lines.Count(l => l.Price > 5) >= 1);
        yield return ("Lines.Sum(Price) > 100", x => x.Lines.Sum(l => l.Price) > 100);
        yield return ("Lines.All(Quantity > 0)", x => x.Lines.All(l => l.Quantity > 0));
        yield return ("Lines.Any(Price == Quantity)", x => x.Lines.Any(l => l.Price == l.Quantity));
        yield return ("Lines.Any(!(Price > 5))", x => x.Lines.Any(l => !(l.Price > 5)));
        yield return ("Lines.Any(Price > 5 && !(Quantity == 3))", x => x.Lines.Any(l => l.Price > 5 && !(l.Quantity == 3)));
        yield return ("Id == orders/1", x => x.Id == "orders/1");
        yield return ("Id StartsWith orders/", x => x.Id!.StartsWith("orders/", StringComparison.Ordinal));
        yield return ("Big > int.MaxValue", x => x.Big > int.MaxValue);
        yield return ("Huge > 5", x => x.Huge > 5);
        yield return ("Huge == long.MaxValue + 1", x => x.Huge == (ulong)long.MaxValue + 1);
        yield return ("Weight > -Infinity", x => x.Weight > double.NegativeInfinity);
        yield return ("IsNaN(Weight)", x => double.IsNaN(x.Weight));
        yield return ("Customer.Length == 0", x => x.Customer.Length == 0);
        yield return ("Note.Length > 3", x => x.Note != null && x.Note.Length > 3);
        yield return ("Customer != null", x => x.Customer != null);
        yield return ("!(Customer == Bob) && !(Rush)", x => !(x.Customer == "Bob") && !x.Rush);
        yield return ("Customer == Bob ? Rush : !Rush", x => x.Customer == "Bob" ? x.Rush : !x.Rush);
    }

    [Fact]
    public void More_shapes_users_write_answer_as_LINQ_to_Objects_or_refuse()
    {
        var wrong = new List<string>();
        var refused = new List<string>();
        var right = 0;
        using var session = _store.OpenSession();
        Assert.Equal(Count, session.Query<Order>().Where(x => x.Quantity >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
        foreach (var (name, predicate) in MoreShapes())
        {
            var expected = Keys(_orders.Where(predicate.Compile()));
            try
            {
                var actual = Keys(session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(predicate).ToList());
                var count = session.Query<Order>().Where(predicate).Count();
                if (actual.SetEquals(expected) && count == expected.Count)
                    right++;
                else
                    wrong.Add($"{name}: expected {expected.Count}, got {actual.Count} (Count {count}); missing {expected.Except(actual).Count()}, extra {actual.Except(expected).Count()}");
            }
            catch (NotSupportedException ex)
            {
                refused.Add($"{name}: {ex.Message[..Math.Min(100, ex.Message.Length)]}");
            }
            catch (Exception ex) when (ex is not NotSupportedException)
            {
                wrong.Add($"{name}: threw {ex.GetType().Name}: {ex.Message[..Math.Min(200, ex.Message.Length)]}");
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong:\n" + string.Join("\n", wrong));
        // Comparisons, null checks, enums, nullable values, Any and Count answer; what is computed by .NET is refused.
        Assert.True(right >= 30, $"only {right} answered; refused:\n" + string.Join("\n", refused));
    }

    private static HashSet<string> Keys(IEnumerable<Order> orders) => [.. orders.Select(o => o.Id!.ToLowerInvariant())];

    [Fact]
    public void Every_shape_answers_as_LINQ_to_Objects_or_refuses_with_NotSupportedException()
    {
        var shapes = Shapes().ToList();
        var wrong = new List<string>();
        var refused = new List<string>();
        var refusedForLongValues = new List<string>();
        var right = 0;
        using var session = _store.OpenSession();
        // The first query makes the auto index; waiting once is enough for the rest to see every order.
        Assert.Equal(Count, session.Query<Order>().Where(x => x.Quantity >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
        foreach (var (name, predicate) in shapes)
        {
            var expected = Keys(_orders.Where(predicate.Compile()));
            try
            {
                var actual = session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(predicate).ToList();
                var count = session.Query<Order>().Where(predicate).Count();
                var keys = Keys(actual);
                if (keys.SetEquals(expected) && count == expected.Count && actual.Count == expected.Count)
                    right++;
                else
                    wrong.Add($"{name}: expected {expected.Count}, got {actual.Count} (Count() {count}); missing {expected.Except(keys).Count()}, extra {keys.Except(expected).Count()}");
            }
            catch (NotSupportedException ex) when (ex.Message.Contains("holds values longer than", StringComparison.Ordinal))
            {
                // A pattern not anchored at the start, on a field holding a value longer than a term keeps: refused by
                // the index, only then.
                Assert.True(HoldsLongCustomer, $"{name} was refused for long values, and no customer is long: {ex.Message}");
                refusedForLongValues.Add(name);
            }
            catch (NotSupportedException)
            {
                refused.Add(name);
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong answers of {shapes.Count} shapes:\n" + string.Join("\n", wrong));
        Assert.True(shapes.Count >= 150, $"only {shapes.Count} shapes");
        // Refusals are honest, but the common shapes must not be among them.
        Assert.True(right >= shapes.Count - 10 - refusedForLongValues.Count, $"{refused.Count} refused: {string.Join(", ", refused)}");
    }

    /// <summary>
    /// Random combinations of the shapes above (each as the compiler wrote it, closures and conversions included) under
    /// <c>&amp;&amp;</c>, <c>||</c> and <c>!</c>, up to three levels deep: negation and null semantics are where a
    /// translation goes wrong when the shapes alone are right.
    /// </summary>
    [Fact]
    public void Generated_combinations_of_shapes_answer_as_LINQ_to_Objects_or_refuse()
    {
        var atoms = Shapes().ToList();
        var random = new Random(2811);
        var wrong = new List<string>();
        var right = 0;
        var refused = 0;
        using var session = _store.OpenSession();
        Assert.Equal(Count, session.Query<Order>().Where(x => x.Quantity >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
        var parameter = Expression.Parameter(typeof(Order), "x");
        for (var i = 0; i < 250; i++)
        {
            var (name, body) = Combine(random, atoms, parameter, depth: random.Next(1, 4));
            var predicate = Expression.Lambda<Func<Order, bool>>(body, parameter);
            var expected = Keys(_orders.Where(predicate.Compile()));
            try
            {
                var actual = Keys(session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(predicate).ToList());
                if (actual.SetEquals(expected))
                    right++;
                else
                    wrong.Add($"{name}: expected {expected.Count}, missing {expected.Except(actual).Count()}, extra {actual.Except(expected).Count()}");
            }
            catch (NotSupportedException)
            {
                refused++;
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong answers of 250 combinations:\n" + string.Join("\n", wrong));
        Assert.True(right >= 200, $"only {right} answered, {refused} refused");
    }

    /// <summary>
    /// Random orderings (one to three keys of every non-string kind, each ascending or descending), under a random
    /// condition, with random Skip and Take: the same operators applied to LINQ to Objects give the oracle's sequence,
    /// ties in storage order (the index's tie-break).
    /// </summary>
    [Fact]
    public void Generated_orderings_with_paging_match_LINQ_to_Objects_in_order()
    {
        string[] keys = ["Total", "Weight", "Ratio", "Quantity", "Big", "Huge", "Discount", "Rush", "State", "PlacedAt", "PlacedOffset", "Reference"];
        var atoms = Shapes().ToList();
        var random = new Random(2812);
        var wrong = new List<string>();
        var refused = new List<string>();
        var right = 0;
        using var session = _store.OpenSession();
        Assert.Equal(Count, session.Query<Order>().Where(x => x.Quantity >= -1000).WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Count());
        for (var i = 0; i < 60; i++)
        {
            var (atomName, predicate) = atoms[random.Next(atoms.Count)];
            var name = $"Where[{atomName}]";
            var operators = new List<Func<IQueryable<Order>, IQueryable<Order>>>();
            var sorts = random.Next(1, 4);
            for (var k = 0; k < sorts; k++)
            {
                var member = keys[random.Next(keys.Length)];
                var method = (k == 0 ? "OrderBy" : "ThenBy") + (random.Next(2) == 0 ? "" : "Descending");
                operators.Add(query => Sorted(query, method, member));
                name += $".{method}({member})";
            }
            if (random.Next(2) == 0)
            {
                var skip = random.Next(0, 40);
                operators.Add(query => query.Skip(skip));
                name += $".Skip({skip})";
            }
            if (random.Next(2) == 0)
            {
                var take = random.Next(1, 60);
                operators.Add(query => query.Take(take));
                name += $".Take({take})";
            }
            var expected = operators.Aggregate(_orders.AsQueryable().Where(predicate), (query, apply) => apply(query)).Select(x => x.Id).ToList();
            try
            {
                // A refused condition or operator throws as the query is built (RavenQuery translates each step at once).
                var start = ((IQueryable<Order>)session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2))).Where(predicate);
                var got = operators.Aggregate(start, (query, apply) => apply(query)).Select(x => x.Id).ToList();
                if (got.SequenceEqual(expected, StringComparer.OrdinalIgnoreCase))
                    right++;
                else
                    wrong.Add($"{name}: {expected.Count} expected, {got.Count} got, first difference at {got.Zip(expected).TakeWhile(p => string.Equals(p.First, p.Second, StringComparison.OrdinalIgnoreCase)).Count()}");
            }
            catch (NotSupportedException e)
            {
                refused.Add($"{name}: {e.Message[..Math.Min(120, e.Message.Length)]}");
            }
        }
        Assert.True(wrong.Count == 0, $"{wrong.Count} wrong orders of 60:\n" + string.Join("\n", wrong));
        Assert.True(right >= 45, $"only {right} of 60 answered; refused:\n" + string.Join("\n", refused));
    }

    private static IQueryable<Order> Sorted(IQueryable<Order> source, string method, string member)
    {
        var parameter = Expression.Parameter(typeof(Order), "x");
        var key = Expression.Lambda(Expression.Property(parameter, member), parameter);
        var call = Expression.Call(typeof(Queryable), method, [typeof(Order), key.ReturnType], source.Expression, Expression.Quote(key));
        return source.Provider.CreateQuery<Order>(call);
    }

    private static (string Name, Expression Body) Combine(Random random, List<(string Name, Expression<Func<Order, bool>> Predicate)> atoms,
        ParameterExpression parameter, int depth)
    {
        (string Name, Expression Body) result;
        if (depth <= 1)
        {
            var (name, predicate) = atoms[random.Next(atoms.Count)];
            result = ($"[{name}]", new ParameterSwap(predicate.Parameters[0], parameter).Visit(predicate.Body));
        }
        else
        {
            var left = Combine(random, atoms, parameter, depth - 1);
            var right = Combine(random, atoms, parameter, random.Next(1, depth));
            result = random.Next(2) == 0
                ? ($"({left.Name} && {right.Name})", Expression.AndAlso(left.Body, right.Body))
                : ($"({left.Name} || {right.Name})", Expression.OrElse(left.Body, right.Body));
        }
        return random.Next(4) == 0 ? ($"!{result.Name}", Expression.Not(result.Body)) : result;
    }

    private sealed class ParameterSwap(ParameterExpression from, ParameterExpression to) : ExpressionVisitor
    {
        protected override Expression VisitParameter(ParameterExpression node) => node == from ? to : node;
    }

    [Fact]
    public void Orderings_paging_and_aggregates_match_LINQ_to_Objects()
    {
        using var session = _store.OpenSession();
        // As IQueryable: RavenQuery's own Select (server-side member projections) would take the call otherwise.
        IQueryable<Order> query = session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2));
        Assert.Equal(Count, query.Count(x => x.Quantity >= -1000));

        // Stable sorts: the oracle's source is in storage order, which is the index's tie-break.
        Assert.Equal(_orders.OrderBy(x => x.Total).Select(x => x.Id), query.OrderBy(x => x.Total).Select(x => x.Id).ToList());
        Assert.Equal(_orders.OrderByDescending(x => x.Weight).ThenBy(x => x.Quantity).Select(x => x.Id),
            query.OrderByDescending(x => x.Weight).ThenBy(x => x.Quantity).Select(x => x.Id).ToList());
        Assert.Equal(_orders.OrderBy(x => x.PlacedAt).Skip(10).Take(25).Select(x => x.Id),
            query.OrderBy(x => x.PlacedAt).Skip(10).Take(25).Select(x => x.Id).ToList());
        Assert.Equal(_orders.OrderBy(x => x.PlacedOffset).ThenByDescending(x => x.Big).Select(x => x.Id),
            query.OrderBy(x => x.PlacedOffset).ThenByDescending(x => x.Big).Select(x => x.Id).ToList());
        // Strings sort with the culture (LINQ's default comparer) or by code point (StringComparer.Ordinal), on their first
        // 16 KB (docs/indexing.md): the 20,000-character ones are left out here.
        Assert.Equal(_orders.Where(x => !x.Customer.StartsWith("ééé", StringComparison.Ordinal)).OrderBy(x => x.Customer).Select(x => x.Id),
            query.Where(x => !x.Customer.StartsWith("ééé", StringComparison.Ordinal)).OrderBy(x => x.Customer).Select(x => x.Id).ToList());
        Assert.Equal(_orders.Where(x => !x.Customer.StartsWith("ééé", StringComparison.Ordinal)).OrderBy(x => x.Customer, StringComparer.Ordinal).Select(x => x.Id),
            query.Where(x => !x.Customer.StartsWith("ééé", StringComparison.Ordinal)).OrderBy(x => x.Customer, StringComparer.Ordinal).Select(x => x.Id).ToList());
        Assert.Equal(_orders.OrderBy(x => x.Discount).Select(x => x.Id), query.OrderBy(x => x.Discount).Select(x => x.Id).ToList());

        Assert.Equal(_orders.Count(x => x.Rush), query.Count(x => x.Rush));
        Assert.Equal(_orders.LongCount(x => x.Quantity > 3), query.LongCount(x => x.Quantity > 3));
        Assert.Equal(_orders.Any(x => x.Customer == "nobody"), query.Any(x => x.Customer == "nobody"));
        Assert.True(query.Any(x => x.Quantity > 3));
        Assert.Equal(_orders.Where(x => x.Quantity > 3).Sum(x => x.Quantity), query.Where(x => x.Quantity > 3).Sum(x => x.Quantity));
        Assert.Equal(_orders.Where(x => x.Total < 1000 && x.Total > -1000).Sum(x => x.Total), query.Where(x => x.Total < 1000 && x.Total > -1000).Sum(x => x.Total));
        Assert.Equal(_orders.Max(x => x.Total), query.Max(x => x.Total));
        Assert.Equal(_orders.Min(x => x.Big), query.Min(x => x.Big));
        Assert.Equal(_orders.Max(x => x.Huge), query.Max(x => x.Huge));
        Assert.Equal(_orders.Max(x => x.PlacedAt), query.Max(x => x.PlacedAt));
        Assert.Equal(_orders.Min(x => x.Discount), query.Min(x => x.Discount));
        Assert.Equal(_orders.Where(x => x.Weight < 1000).Sum(x => x.Weight), query.Where(x => x.Weight < 1000).Sum(x => x.Weight), 1e-9);
        Assert.Equal(_orders.Average(x => x.Quantity), query.Average(x => x.Quantity), 1e-12);
        Assert.Equal(_orders.Average(x => x.Discount), query.Average(x => x.Discount));
        Assert.Equal(_orders.First(x => x.Quantity == 4).Id, query.First(x => x.Quantity == 4).Id);
        Assert.Null(query.FirstOrDefault(x => x.Customer == "nobody"));
        Assert.Throws<InvalidOperationException>(() => query.First(x => x.Customer == "nobody"));
        Assert.Throws<InvalidOperationException>(() => query.Single(x => x.Quantity >= -1000));
        Assert.Throws<InvalidOperationException>(() => query.Where(x => x.Customer == "nobody").Max(x => x.Quantity));
        Assert.Equal(_orders.Select(x => x.State).Distinct().Count(), query.Select(x => x.State).Distinct().Count());
        Assert.Equal(_orders.Where(x => x.Rush).Select(x => new { x.Customer, Double = x.Quantity * 2 }).Count(),
            query.Where(x => x.Rush).Select(x => new { x.Customer, Double = x.Quantity * 2 }).ToList().Count);
    }

    /// <summary>C# 14 binds <c>array.Contains(x.Member)</c> to the span overload; it is still a list of values to match.</summary>
    [Fact]
    public void Array_Contains_bound_to_the_span_overload_answers_as_LINQ_to_Objects()
    {
        using var session = _store.OpenSession();
        string[] customers = ["Bob", "alice", "nobody"];
        Status[] states = [Status.Paid, Status.Cancelled];
        int[] quantities = [];
        Assert.Equal(Keys(_orders.Where(x => customers.Contains(x.Customer))),
            Keys(session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(x => customers.Contains(x.Customer)).ToList()));
        Assert.Equal(Keys(_orders.Where(x => states.Contains(x.State) && !new[] { "Bob" }.Contains(x.Customer))),
            Keys(session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(x => states.Contains(x.State) && !new[] { "Bob" }.Contains(x.Customer)).ToList()));
        Assert.Empty(session.Query<Order>().WaitForNonStaleResults(TimeSpan.FromMinutes(2)).Where(x => quantities.Contains(x.Quantity)).ToList());
    }

    [Fact]
    public void Unsupported_operators_throw_NotSupportedException()
    {
        using var session = _store.OpenSession();
        IQueryable<Order> query = session.Query<Order>();
        Assert.Throws<NotSupportedException>(() => query.GroupBy(x => x.Customer).ToList());
        Assert.Throws<NotSupportedException>(() => query.Take(3).Where(x => x.Rush).ToList());
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Quantity > x.Discount).ToList());
        Assert.Throws<NotSupportedException>(() => query.Where(x => x.Customer.ToUpper() == "BOB").ToList());
    }
}

public sealed class EmbeddedLinqDifferentialTests() : LinqDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()));

public sealed class RemoteLinqDifferentialTests() : LinqDifferentialTests(async () => await RemoteStoreFixture.StartAsync());

/// <summary>
/// The same shapes over data of other seeds: 707 drew a value longer than a term keeps into <c>EndsWith</c>'s argument
/// and half of an emoji into <c>Contains</c>'s, 606 a <c>Contains</c> that matched a long value's hash.
/// </summary>
public sealed class EmbeddedLinqDifferentialTestsSeed707() : LinqDifferentialTests(() => Task.FromResult<StoreFixture>(EmbeddedStoreFixture.Start()), seed: 707);

/// <inheritdoc cref="EmbeddedLinqDifferentialTestsSeed707"/>
public sealed class RemoteLinqDifferentialTestsSeed606() : LinqDifferentialTests(async () => await RemoteStoreFixture.StartAsync(), seed: 606);
