using System.Buffers.Binary;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>
/// Damaged BSON reads as it did through Newtonsoft's BsonDataReader: the same partial output where it stopped
/// quietly at the end of the bytes, the same exception where it threw; and never a hang or a huge allocation.
/// </summary>
#pragma warning disable CA5394 // test data, not security
public sealed class BsonJsonTranscoderDamageTests
{
    private static readonly int[] Lengths = [int.MinValue, -1_000_000, -9, -5, -1, 0, 1, 2, 3, 4, 5, 6, 12, 127, 128, 129, 1_000_000, int.MaxValue];

    private static IEnumerable<byte[]> Samples()
    {
        yield return SeedCart.Data.ToArray();
        yield return SeedCart.Metadata.ToArray();
        var random = new RandomBson(42);
        for (var i = 0; i < 12; i++)
            yield return random.Document(maxDepth: 2);
    }

    [Fact]
    public void Truncated_documents_read_as_before()
    {
        foreach (var bson in Samples())
        {
            for (var length = 0; length < bson.Length; length++)
            {
                var truncated = bson[..length];
                Transcoding.AssertSameAsOld(truncated, $"cut to {length}");
                if (length >= 4) // and with a header that agrees, as a record's would
                {
                    var patched = (byte[])truncated.Clone();
                    BinaryPrimitives.WriteInt32LittleEndian(patched, length);
                    Transcoding.AssertSameAsOld(patched, $"cut to {length}, header patched");
                }
            }
        }
    }

    [Fact]
    public void Bad_lengths_read_as_before()
    {
        foreach (var bson in Samples())
        {
            var layout = BsonLayout.Of(bson);
            foreach (var at in layout.ContainerLengths.Concat(layout.ValueLengths))
            {
                var actual = BinaryPrimitives.ReadInt32LittleEndian(bson.AsSpan(at));
                foreach (var length in Lengths.Concat([actual - 2, actual - 1, actual + 1, actual + 2]))
                {
                    var damaged = (byte[])bson.Clone();
                    BinaryPrimitives.WriteInt32LittleEndian(damaged.AsSpan(at), length);
                    Transcoding.AssertSameAsOld(damaged, $"length at {at} set to {length}");
                }
            }
        }
    }

    [Fact]
    public void Bad_type_bytes_read_as_before()
    {
        foreach (var bson in Samples().Take(4))
        {
            foreach (var at in BsonLayout.Of(bson).Types)
            {
                for (var type = 0; type < 256; type++)
                {
                    var damaged = (byte[])bson.Clone();
                    damaged[at] = (byte)type;
                    Transcoding.AssertSameAsOld(damaged, $"type at {at} set to 0x{type:X2}");
                }
            }
        }
    }

    [Fact]
    public void Missing_terminators_read_as_before()
    {
        foreach (var bson in Samples())
        {
            var layout = BsonLayout.Of(bson);
            foreach (var at in layout.NameEnds.Concat(layout.StringEnds).Concat(layout.ContainerEnds))
            {
                var overwritten = (byte[])bson.Clone();
                overwritten[at] = (byte)'x';
                Transcoding.AssertSameAsOld(overwritten, $"terminator at {at} overwritten");
                Transcoding.AssertSameAsOld([.. bson[..at], .. bson[(at + 1)..]], $"terminator at {at} removed");
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Random_damage_reads_as_before(int seed)
    {
        var random = new Random(seed);
        var samples = Samples().ToArray();
        for (var i = 0; i < 3000; i++)
        {
            var damaged = samples[random.Next(samples.Length)].ToList();
            for (var changes = random.Next(1, 5); changes > 0 && damaged.Count > 0; changes--)
            {
                var at = random.Next(damaged.Count);
                switch (random.Next(4))
                {
                    case 0: damaged.RemoveAt(at); break;
                    case 1: damaged.Insert(at, (byte)random.Next(256)); break;
                    case 2: damaged[at] = (byte)(damaged[at] ^ (1 << random.Next(8))); break;
                    default: damaged[at] = (byte)random.Next(256); break;
                }
            }
            Transcoding.AssertSameAsOld([.. damaged], $"(seed {seed}, case {i})");
        }
    }
}
