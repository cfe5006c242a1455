using RavenLite.Indexing.MapReduce;

namespace RavenLite.Indexing.Tests.MapReduce;

public sealed class GroupStateTests
{
    private static MapRow Row(decimal value) => new(["customers/1"], [value]);

    [Fact]
    public void Removing_the_largest_value_of_an_input_only_summed_stays_exact()
    {
        var state = new GroupState([false]);
        state.Add(Row(5));
        state.Add(Row(9));

        Assert.True(state.TryRemove(Row(9)));
        Assert.Equal(5m, state.Sums[0]);
        Assert.Null(state.Maxes[0]);
    }

    [Fact]
    public void Removing_the_largest_value_of_an_input_a_Max_reads_asks_for_a_recompute()
    {
        var state = new GroupState([true]);
        state.Add(Row(5));
        state.Add(Row(9));

        Assert.False(state.TryRemove(Row(9)));
    }

    [Fact]
    public void A_state_read_back_keeps_the_extremes_only_of_the_inputs_that_need_them()
    {
        var written = new GroupState([true, false]);
        written.Add(new MapRow(["customers/1"], [3m, 4m]));
        written.Add(new MapRow(["customers/1"], [7m, 8m]));

        var read = GroupState.Read(written.Write(), [true, false]);

        Assert.Equal((2L, 10m, 3m, 7m), (read.Count, read.Sums[0], read.Mins[0], read.Maxes[0]));
        Assert.Equal((12m, (decimal?)null), (read.Sums[1], read.Maxes[1]));
    }
}
