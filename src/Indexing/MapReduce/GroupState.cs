using System.Text;

namespace RavenLite.Indexing.MapReduce;

/// <summary>
/// What a group's result is computed from, kept with the result: its entry count and, per numeric input, how many
/// values, their sum (decimal, so removing a value takes exactly what adding it gave), and the smallest and the largest
/// for the inputs a Min or Max reads (<see cref="ReduceMapper.Extremes"/>): only those can make a removal inexact.
/// </summary>
internal sealed class GroupState
{
    private readonly bool[] _extremes;

    /// <param name="extremes">Per input, whether its smallest and largest values are kept.</param>
    public GroupState(bool[] extremes)
    {
        _extremes = extremes;
        var inputs = extremes.Length;
        Counts = new long[inputs];
        Sums = new decimal[inputs];
        Mins = new decimal?[inputs];
        Maxes = new decimal?[inputs];
    }

    public long Count { get; private set; }

    public long[] Counts { get; }

    public decimal[] Sums { get; }

    public decimal?[] Mins { get; }

    public decimal?[] Maxes { get; }

    public void Add(MapRow row)
    {
        Count++;
        for (var i = 0; i < Sums.Length; i++)
        {
            if (row.Values[i] is not { } value)
                continue;
            Counts[i]++;
            Sums[i] += value;
            if (!_extremes[i])
                continue;
            if (Mins[i] is not { } min || value < min)
                Mins[i] = value;
            if (Maxes[i] is not { } max || value > max)
                Maxes[i] = value;
        }
    }

    /// <summary>
    /// Takes a row out; false when the group's smallest or largest value of an input a Min or Max reads went with it, so
    /// the group must be recomputed from its entries.
    /// </summary>
    public bool TryRemove(MapRow row)
    {
        Count--;
        var exact = true;
        for (var i = 0; i < Sums.Length; i++)
        {
            if (row.Values[i] is not { } value)
                continue;
            Counts[i]--;
            Sums[i] -= value;
            if (Counts[i] == 0)
            {
                Mins[i] = Maxes[i] = null;
                continue;
            }
            if (_extremes[i] && (value == Mins[i] || value == Maxes[i]))
                exact = false;
        }
        return exact;
    }

    /// <summary>A copy that later <see cref="Add"/>s and <see cref="TryRemove"/>s of this one do not change.</summary>
    public GroupState Copy()
    {
        var copy = new GroupState(_extremes) { Count = Count };
        Counts.CopyTo(copy.Counts, 0);
        Sums.CopyTo(copy.Sums, 0);
        Mins.CopyTo(copy.Mins, 0);
        Maxes.CopyTo(copy.Maxes, 0);
        return copy;
    }

    public byte[] Write()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(Count);
            writer.Write7BitEncodedInt(Sums.Length);
            for (var i = 0; i < Sums.Length; i++)
            {
                writer.Write(Counts[i]);
                writer.Write(Sums[i]);
                writer.Write(Mins[i] ?? 0m);
                writer.Write(Maxes[i] ?? 0m);
            }
        }
        return stream.ToArray();
    }

    public static GroupState Read(ReadOnlySpan<byte> bytes, bool[] extremes)
    {
        using var stream = new MemoryStream(bytes.ToArray());
        using var reader = new BinaryReader(stream, Encoding.UTF8);
        var count = reader.ReadInt64();
        if (reader.Read7BitEncodedInt() != extremes.Length)
            throw new InvalidDataException("A group's stored state has another number of inputs than the index's reduce.");
        var state = new GroupState(extremes) { Count = count };
        for (var i = 0; i < state.Sums.Length; i++)
        {
            state.Counts[i] = reader.ReadInt64();
            state.Sums[i] = reader.ReadDecimal();
            var min = reader.ReadDecimal();
            var max = reader.ReadDecimal();
            if (state.Counts[i] > 0 && extremes[i])
                (state.Mins[i], state.Maxes[i]) = (min, max);
        }
        return state;
    }
}
