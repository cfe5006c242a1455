using System.Text;
using BenchmarkDotNet.Attributes;

namespace RavenLite.Benchmarks.Documents;

/// <summary>
/// What the one key rule costs against what it replaced: the fold of a key to its storage bytes (every read and write;
/// <see cref="DocumentKey.Fold(ReadOnlySpan{char}, Span{char})"/> beside the running ICU's
/// <see cref="MemoryExtensions.ToLowerInvariant"/>), and hashing and comparing keys in the client's maps
/// (<see cref="DocumentKeyComparer"/> beside <see cref="StringComparer.OrdinalIgnoreCase"/>), for an ASCII key and one
/// with Greek capitals.
/// </summary>
[MemoryDiagnoser]
public class KeyFoldBenchmarks
{
    private readonly byte[] _bytes = new byte[DocumentKey.MaxBytes];
    private readonly char[] _chars = new char[DocumentKey.MaxBytes];

    [Params("carts/666", "ΚΑΛΑΘΙΑ/666")]
    public string Key { get; set; } = "";

    private string _otherCase = "";

    [GlobalSetup]
    public void Setup() => _otherCase = Key.Any(char.IsUpper) ? Key.ToLowerInvariant() : Key.ToUpperInvariant();

    [Benchmark(Baseline = true, Description = "storage bytes, ICU ToLowerInvariant")]
    public int StorageBytesIcu()
    {
        var folded = _chars.AsSpan(0, Key.Length);
        Key.AsSpan().ToLowerInvariant(folded);
        return Encoding.UTF8.GetBytes(folded, _bytes);
    }

    [Benchmark(Description = "storage bytes, DocumentKey.Fold")]
    public int StorageBytesTable() => Encoding.UTF8.GetBytes(_chars.AsSpan(0, DocumentKey.Fold(Key, _chars)), _bytes);

    [Benchmark(Description = "hash, OrdinalIgnoreCase")]
    public int HashOrdinalIgnoreCase() => StringComparer.OrdinalIgnoreCase.GetHashCode(Key);

    [Benchmark(Description = "hash, DocumentKeyComparer")]
    public int HashKeyComparer() => DocumentKeyComparer.Instance.GetHashCode(Key);

    [Benchmark(Description = "equals other case, OrdinalIgnoreCase")]
    public bool EqualsOrdinalIgnoreCase() => StringComparer.OrdinalIgnoreCase.Equals(Key, _otherCase);

    [Benchmark(Description = "equals other case, DocumentKeyComparer")]
    public bool EqualsKeyComparer() => DocumentKeyComparer.Instance.Equals(Key, _otherCase);
}
