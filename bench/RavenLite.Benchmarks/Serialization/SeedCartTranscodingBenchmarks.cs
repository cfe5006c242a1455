using System.Buffers;
using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;
using RavenLite.Benchmarks.Infrastructure;
using RavenLite.Storage.Bson;
using RavenLite.Storage.Documents;

namespace RavenLite.Benchmarks.Serialization;

/// <summary>
/// The read path's BSON -> UTF-8 JSON step alone, for one seed cart as written (the transcoder's own walk) and for
/// the same cart with one element the walk leaves to Newtonsoft's BsonDataReader appended (a null under a name of
/// 200 bytes, which that reader decodes in chunks): the walk writes the whole cart, then hands the document over,
/// the path odd or damaged BSON takes.
/// </summary>
[MemoryDiagnoser]
public class SeedCartTranscodingBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(4096);
    private byte[] _cart = [];
    private byte[] _oddCart = [];

    [GlobalSetup]
    public void Setup()
    {
        _cart = SeedCart.Data.ToArray();
        byte[] odd = [0x0A, .. Enumerable.Repeat((byte)'n', 200), 0];
        _oddCart = [.. _cart[..^1], .. odd, 0];
        BinaryPrimitives.WriteInt32LittleEndian(_oddCart, _oddCart.Length);
    }

    [Benchmark(Baseline = true, Description = "seed cart BSON -> JSON (as written)")]
    public int Cart() => Transcode(_cart);

    [Benchmark(Description = "seed cart + one odd element BSON -> JSON (hand-off)")]
    public int OddCart() => Transcode(_oddCart);

    private int Transcode(byte[] bson)
    {
        _output.ResetWrittenCount();
        return BsonCodec.ToJson(bson, _output);
    }
}
