using Lucene.Net.Util.Automaton;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Subset construction with a bound: turns a nondeterministic automaton (a regular expression's or a wildcard's) into a
/// deterministic one, or refuses with <see cref="LimitExceededException"/> as soon as it would have more than
/// <see cref="MultiTermLimits.MaxAutomatonStates"/> states or cost more than <see cref="MultiTermLimits.MaxAutomatonWork"/>
/// steps. Lucene 4.8 determinizes without any bound, and some short patterns (<c>.{0,100}a.{0,100}</c>, <c>a*??????????????????</c>)
/// have exponentially many states; the automaton handed to Lucene is already deterministic, so it never does it again.
/// </summary>
internal static class BoundedDeterminizer
{
    /// <exception cref="LimitExceededException">The deterministic automaton would be too large to build.</exception>
    public static Automaton Determinize(Automaton automaton, string what)
    {
        if (automaton.IsDeterministic)
            return automaton;
        var states = automaton.GetNumberedStates();
        var points = automaton.GetStartPoints();
        var work = (long)states.Length;
        var made = new Dictionary<int[], State>(SubsetComparer.Instance);
        var pending = new Queue<(int[] Subset, State State)>();
        var initialSubset = new[] { automaton.GetInitialState().Number };
        var initial = new State();
        made.Add(initialSubset, initial);
        pending.Enqueue((initialSubset, initial));
        var buckets = new List<int>[points.Length];
        for (var i = 0; i < buckets.Length; i++)
            buckets[i] = [];
        while (pending.TryDequeue(out var item))
        {
            foreach (var member in item.Subset)
            {
                var state = states[member];
                if (state.Accept)
                    item.State.Accept = true;
                foreach (var transition in state.GetTransitions())
                {
                    // Every interval of the points that lies in [Min, Max] leads to Dest.
                    var at = Array.BinarySearch(points, transition.Min);
                    for (var p = at >= 0 ? at : ~at; p < points.Length && points[p] <= transition.Max; p++)
                    {
                        buckets[p].Add(transition.Dest.Number);
                        work++;
                    }
                }
            }
            for (var p = 0; p < points.Length; p++)
            {
                var bucket = buckets[p];
                if (bucket.Count == 0)
                    continue;
                work += bucket.Count;
                if (work > MultiTermLimits.MaxAutomatonWork)
                    throw TooLarge(what);
                bucket.Sort();
                var subset = Distinct(bucket);
                bucket.Clear();
                if (!made.TryGetValue(subset, out var target))
                {
                    if (made.Count >= MultiTermLimits.MaxAutomatonStates)
                        throw TooLarge(what);
                    target = new State();
                    made.Add(subset, target);
                    pending.Enqueue((subset, target));
                }
                var max = p + 1 < points.Length ? points[p + 1] - 1 : MultiTermLimits.MaxCodePoint;
                item.State.AddTransition(new Transition(points[p], max, target));
            }
        }
        var result = new Automaton(initial);
        result.Reduce(); // adjacent intervals to the same state become one transition
        return result;
    }

    private static LimitExceededException TooLarge(string what) =>
        new(nameof(MultiTermLimits.MaxAutomatonStates),
            $"{what} would need an automaton of more than {MultiTermLimits.MaxAutomatonStates:N0} states; simplify it " +
            "(bounded repetitions such as .{0,100} or runs of ? after a * multiply the states).");

    private static int[] Distinct(List<int> sorted)
    {
        var count = 1;
        for (var i = 1; i < sorted.Count; i++)
        {
            if (sorted[i] != sorted[i - 1])
                count++;
        }
        var result = new int[count];
        result[0] = sorted[0];
        for (int i = 1, j = 1; i < sorted.Count; i++)
        {
            if (sorted[i] != sorted[i - 1])
                result[j++] = sorted[i];
        }
        return result;
    }

    private sealed class SubsetComparer : IEqualityComparer<int[]>
    {
        public static readonly SubsetComparer Instance = new();

        public bool Equals(int[]? x, int[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(int[] subset)
        {
            var hash = new HashCode();
            hash.AddBytes(System.Runtime.InteropServices.MemoryMarshal.AsBytes(subset.AsSpan()));
            return hash.ToHashCode();
        }
    }
}
