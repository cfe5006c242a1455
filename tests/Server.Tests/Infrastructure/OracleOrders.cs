using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Microsoft.Data.Sqlite;

namespace RavenLite.Server.Tests.Infrastructure;

/// <summary>
/// Random orders (entity <c>OracleOrder</c>) mirrored row for row into an in-memory SQLite database, the oracle of the
/// map/reduce, facet and aggregate differential tests. Values of every kind the index aggregates: whole numbers
/// (<c>Qty</c> small ints, <c>Big</c> longs up to ±10^12, zero and negatives), decimals with two places (<c>Price</c>,
/// <c>Discount</c>; SQLite's REAL is a double, so they are kept there as integer cents and summed exactly as
/// INTEGER) and doubles (<c>Weight</c>, a REAL, compared within a tolerance). Strings include the empty string,
/// accents, CJK, characters beyond the BMP (surrogate pairs, whose UTF-16 order differs from their code-point order)
/// and JSON escapes. Numbers are sometimes written with trailing zeros (<c>3.0</c>, <c>12.50</c>), zero also as <c>-0</c>, <c>-0.0</c>, <c>0e5</c>.
/// </summary>
internal sealed class OracleOrders : IDisposable
{
    public const string EntityName = "OracleOrder";

    public static readonly string[] Customers =
        ["", "ayende", "Zoë", "zoe", "東京", "🙂 smile", "\uFF21wide", "\uE000private", "say \"hi\"", "back\\slash", "customers/1", "customers/2", "customers/10", "a b", "[null]", "[\"x\"]"];

    public static readonly string[] Statuses = ["new", "paid", "shipped", "cancelled"];

    public static readonly string[] Skus = ["apple", "pear", "Ünïcode", "", "🍐", "PEAR"];

    private static readonly JsonWriterOptions WriterOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly Random _random;
    private readonly int _keys;

    public OracleOrders(int seed, int keys)
    {
        _random = new Random(seed);
        _keys = keys;
        Sql = new SqliteConnection("Data Source=:memory:");
        Sql.Open();
        Execute("""
            CREATE TABLE orders (key TEXT PRIMARY KEY, customer TEXT, status TEXT, priority INTEGER, discount_cents INTEGER, line_count INTEGER);
            CREATE TABLE lines (key TEXT NOT NULL, idx INTEGER NOT NULL, sku TEXT, qty INTEGER, big INTEGER, price_cents INTEGER, weight REAL);
            CREATE INDEX lines_key ON lines(key);
            """);
    }

    public Random Random => _random;

    public SqliteConnection Sql { get; }

    /// <summary>The current orders by key, with their customers (to delete whole groups).</summary>
    public Dictionary<string, string> CustomerOf { get; } = new(StringComparer.Ordinal);

    /// <summary>The next change: a key and the order's JSON put there, or null for a delete; mirrored into SQLite.</summary>
    public (string Key, string? Json) Next()
    {
        var key = $"oracleorders/{_random.Next(_keys)}";
        if (CustomerOf.ContainsKey(key) && _random.Next(5) == 0)
        {
            Delete(key);
            return (key, null);
        }
        return (key, Put(key));
    }

    public void Delete(string key)
    {
        CustomerOf.Remove(key);
        Execute("DELETE FROM orders WHERE key = $k; DELETE FROM lines WHERE key = $k;", ("$k", key));
    }

    private string Put(string key)
    {
        Delete(key);
        var customer = Pick(Customers);
        string? status = _random.Next(10) == 0 ? null : Pick(Statuses);
        var statusNull = status is null && _random.Next(2) == 0; // null written out, or missing
        long? priority = _random.Next(10) == 0 ? null : _random.Next(-2, 6);
        long? discount = _random.Next(8) == 0 ? null : _random.Next(-5000, 5001);
        var lineCount = -1;
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer, WriterOptions))
        {
            writer.WriteStartObject();
            writer.WriteString("Customer", customer);
            if (status is not null)
                writer.WriteString("Status", status);
            else if (statusNull)
                writer.WriteNull("Status");
            if (priority is { } p)
            {
                // 3, 3.0 or 3.00: one number, however it is written
                writer.WritePropertyName("Priority");
                writer.WriteRawValue(p == 0 && _random.Next(2) == 0
                    ? Pick(["-0", "-0.0", "0.0", "0e5", "-0E-2"])
                    : p.ToString(CultureInfo.InvariantCulture) + _random.Next(3) switch { 0 => "", 1 => ".0", _ => ".00" });
            }
            if (discount is { } d)
                writer.WriteNumber("Discount", Cents(d));
            lineCount = _random.Next(12) == 0 ? -1 : _random.Next(5);
            if (lineCount >= 0)
            {
                writer.WriteStartArray("Lines");
                for (var i = 0; i < lineCount; i++)
                    WriteLine(writer, key, i);
                writer.WriteEndArray();
            }
            writer.WriteEndObject();
        }
        CustomerOf[key] = customer;
        Execute("INSERT INTO orders VALUES ($k, $c, $s, $p, $d, $n)", ("$k", key), ("$c", customer), ("$s", status), ("$p", priority), ("$d", discount),
            ("$n", lineCount < 0 ? null : lineCount));
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private void WriteLine(Utf8JsonWriter writer, string key, int index)
    {
        var sku = _random.Next(15) == 0 ? null : Pick(Skus);
        long qty = _random.Next(-3, 21);
        var big = _random.Next(6) == 0 ? 0L : _random.NextInt64(-1_000_000_000_000, 1_000_000_000_001);
        long? price = _random.Next(20) == 0 ? null : _random.Next(-10_000, 100_001);
        double? weight = _random.Next(10) == 0 ? null : _random.Next(3) switch
        {
            0 => Math.Round(_random.NextDouble() * 200 - 50, 3),
            1 => (_random.NextDouble() - 0.25) * Math.Pow(10, _random.Next(-6, 7)),
            _ => _random.Next(-5, 6),
        };
        writer.WriteStartObject();
        if (sku is not null)
            writer.WriteString("Sku", sku);
        writer.WriteNumber("Qty", qty);
        writer.WriteNumber("Big", big);
        if (price is { } cents)
            writer.WriteNumber("Price", Cents(cents));
        if (weight is { } w)
            writer.WriteNumber("Weight", w);
        writer.WriteEndObject();
        Execute("INSERT INTO lines VALUES ($k, $i, $sku, $q, $b, $p, $w)",
            ("$k", key), ("$i", index), ("$sku", sku), ("$q", qty), ("$b", big), ("$p", price), ("$w", weight));
    }

    /// <summary>Cents as a decimal of two places, sometimes written with fewer (12.5 rather than 12.50).</summary>
    private decimal Cents(long cents)
    {
        var value = cents / 100m;
        return _random.Next(3) == 0 ? value / 1.0000000000000000000000000000m : value;
    }

    private T Pick<T>(T[] values) => values[_random.Next(values.Length)];

    /// <summary>One of the rows <paramref name="sql"/> selects (its first column), picked by the seeded random; null when none.</summary>
    public object? Pick(string sql, params (string Name, object? Value)[] parameters)
    {
        long count;
        using (var counting = Command($"SELECT COUNT(*) FROM ({sql})", parameters))
            count = (long)counting.ExecuteScalar()!;
        if (count == 0)
            return null;
        // Ordered by every column, so the pick depends on the seed alone.
        using var command = Command($"SELECT * FROM ({sql}) ORDER BY 1 LIMIT 1 OFFSET {_random.NextInt64(count)}", parameters);
        return command.ExecuteScalar() is { } value and not DBNull ? value : null;
    }

    public void Execute(string sql, params (string Name, object? Value)[] parameters)
    {
        using var command = Command(sql, parameters);
        command.ExecuteNonQuery();
    }

    public SqliteCommand Command(string sql, params (string Name, object? Value)[] parameters)
    {
        var command = Sql.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
            command.Parameters.AddWithValue(name, value ?? DBNull.Value);
        return command;
    }

    public void Dispose() => Sql.Dispose();
}
