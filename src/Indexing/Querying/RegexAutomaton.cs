using System.Globalization;
using Lucene.Net.Util.Automaton;

namespace RavenLite.Indexing.Querying;

/// <summary>
/// Reads a regular expression in Lucene's syntax (the one <c>RegexpQuery</c> takes: <c>| &amp; ? * + {n,m} ~ [...] [^...]
/// . # @ "..." () &lt;n-m&gt;</c>, a <c>\</c> escaping the next character, any other character standing for itself) into an
/// automaton, checking its size at every step, so no expression can make one larger than
/// <see cref="MultiTermLimits.MaxAutomatonStates"/>. Lucene's own <c>RegExp.ToAutomaton</c> determinizes and minimizes
/// after every step with no bound at all; here only the whole is determinized, by <see cref="BoundedDeterminizer"/>.
/// </summary>
internal sealed class RegexAutomaton
{
    private readonly string _text;
    private int _at;
    private int _depth;

    private RegexAutomaton(string text) => _text = text;

    /// <summary>The deterministic automaton of <paramref name="regex"/>.</summary>
    /// <exception cref="FormatException">Not a regular expression; the message says where.</exception>
    /// <exception cref="LimitExceededException">Its automaton would be too large.</exception>
    public static Automaton Build(string regex)
    {
        var reader = new RegexAutomaton(regex);
        var automaton = reader.Union();
        if (reader._at < regex.Length)
            throw reader.Syntax("end of expression expected");
        return BoundedDeterminizer.Determinize(automaton, "the regular expression");
    }

    private Automaton Union()
    {
        var parts = new List<Automaton> { Intersection() };
        while (Match('|'))
            parts.Add(Intersection());
        return parts.Count == 1 ? parts[0] : Checked(parts.Sum(p => (long)States(p)) + 1, () => BasicOperations.Union(parts));
    }

    private Automaton Intersection()
    {
        var result = Concatenation();
        while (Match('&'))
        {
            var right = Concatenation();
            Check((long)States(result) * States(right));
            result = BasicOperations.Intersection(result, right);
        }
        return result;
    }

    private Automaton Concatenation()
    {
        var parts = new List<Automaton> { Repetition() };
        long states = States(parts[0]);
        while (More && !Peek(")|&"))
        {
            parts.Add(Repetition());
            states += States(parts[^1]);
            Check(states);
        }
        return parts.Count == 1 ? parts[0] : BasicOperations.Concatenate(parts);
    }

    private Automaton Repetition()
    {
        var result = Complement();
        while (More && Peek("?*+{"))
        {
            var states = (long)States(result);
            switch (_text[_at++])
            {
                case '?':
                    result = Checked(states + 1, () => BasicOperations.Optional(result));
                    break;
                case '*':
                    result = Checked(states + 1, () => BasicOperations.Repeat(result));
                    break;
                case '+':
                    result = Checked(2 * states + 1, () => BasicOperations.Repeat(result, 1));
                    break;
                default:
                    var min = Number();
                    var max = min;
                    var open = false;
                    if (Match(','))
                    {
                        open = !More || !char.IsAsciiDigit(_text[_at]);
                        max = open ? -1 : Number();
                    }
                    if (!Match('}'))
                        throw Syntax("'}' expected");
                    if (open)
                        result = Checked(states * (min + 1) + 1, () => BasicOperations.Repeat(result, min));
                    else
                    {
                        if (min > max)
                            throw Syntax($"the repetition {{{min},{max}}} has its minimum above its maximum");
                        result = Checked(states * Math.Max(max, 1) + 1, () => BasicOperations.Repeat(result, min, max));
                    }
                    break;
            }
        }
        return result;
    }

    private Automaton Complement()
    {
        var negations = 0;
        while (Match('~'))
            negations++;
        var result = CharacterClass();
        for (var i = 0; i < negations; i++)
        {
            // Complementing needs a deterministic automaton: build it here, within the bound, so Lucene's unbounded
            // determinization finds nothing left to do.
            result = BoundedDeterminizer.Determinize(result, "the regular expression");
            result = Checked(States(result) + 1L, () => BasicOperations.Complement(result));
        }
        return result;
    }

    private Automaton CharacterClass()
    {
        if (!Match('['))
            return Simple();
        var negated = Match('^');
        var ranges = new List<(int From, int To)>();
        do
        {
            var from = Character();
            var to = from;
            if (Match('-'))
                to = Character();
            if (from > to)
                throw Syntax($"the range {char.ConvertFromUtf32(from)}-{char.ConvertFromUtf32(to)} runs backwards");
            ranges.Add((from, to));
        }
        while (More && !Peek("]"));
        if (!Match(']'))
            throw Syntax("']' expected");
        return OneOf(negated ? Invert(Merge(ranges)) : Merge(ranges));
    }

    private Automaton Simple()
    {
        if (Match('.'))
            return BasicAutomata.MakeAnyChar();
        if (Match('#'))
            return BasicAutomata.MakeEmpty();
        if (Match('@'))
            return BasicAutomata.MakeAnyString();
        if (Match('"'))
        {
            var end = _text.IndexOf('"', _at);
            if (end < 0)
            {
                _at = _text.Length;
                throw Syntax("'\"' expected");
            }
            var literal = _text[_at..end];
            _at = end + 1;
            return BasicAutomata.MakeString(literal);
        }
        if (Match('('))
        {
            if (Match(')'))
                return BasicAutomata.MakeEmptyString();
            if (++_depth > MultiTermLimits.MaxRegexNesting)
            {
                throw new LimitExceededException(nameof(MultiTermLimits.MaxRegexNesting),
                    $"the regular expression nests groups more than {MultiTermLimits.MaxRegexNesting} deep");
            }
            var inner = Union();
            _depth--;
            if (!Match(')'))
                throw Syntax("')' expected");
            return inner;
        }
        if (Match('<'))
            return Interval();
        return BasicAutomata.MakeChar(Character());
    }

    /// <summary><c>&lt;n-m&gt;</c>: the decimal numbers from n to m (zero-padded to the same width when both are written so).</summary>
    private Automaton Interval()
    {
        var end = _text.IndexOf('>', _at);
        if (end < 0)
        {
            _at = _text.Length;
            throw Syntax("'>' expected");
        }
        var body = _text[_at..end];
        var dash = body.IndexOf('-', StringComparison.Ordinal);
        if (dash <= 0 || dash == body.Length - 1 || dash != body.LastIndexOf('-')
            || !int.TryParse(body.AsSpan(0, dash), NumberStyles.None, CultureInfo.InvariantCulture, out var low)
            || !int.TryParse(body.AsSpan(dash + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var high))
        {
            throw Syntax("<n-m> must hold two whole numbers (named automata are not supported)");
        }
        _at = end + 1;
        var digits = dash == body.Length - dash - 1 ? dash : 0;
        return BasicAutomata.MakeInterval(Math.Min(low, high), Math.Max(low, high), digits);
    }

    private int Number()
    {
        var start = _at;
        while (More && char.IsAsciiDigit(_text[_at]))
            _at++;
        if (start == _at)
            throw Syntax("a whole number expected");
        if (!int.TryParse(_text.AsSpan(start, _at - start), NumberStyles.None, CultureInfo.InvariantCulture, out var number)
            || number > MultiTermLimits.MaxAutomatonStates)
        {
            throw new LimitExceededException(nameof(MultiTermLimits.MaxAutomatonStates),
                $"the regular expression repeats something {_text[start.._at]} times; at most {MultiTermLimits.MaxAutomatonStates:N0} states are allowed");
        }
        return number;
    }

    /// <summary>A character, or the one after a <c>\</c>, as a code point.</summary>
    private int Character()
    {
        Match('\\');
        if (!More)
            throw Syntax("unexpected end of expression");
        var code = char.IsSurrogatePair(_text, _at) ? char.ConvertToUtf32(_text, _at) : _text[_at];
        _at += code > char.MaxValue ? 2 : 1;
        return code;
    }

    private static List<(int From, int To)> Merge(List<(int From, int To)> ranges)
    {
        ranges.Sort();
        var merged = new List<(int From, int To)>();
        foreach (var range in ranges)
        {
            if (merged.Count > 0 && range.From <= merged[^1].To + 1)
                merged[^1] = (merged[^1].From, Math.Max(merged[^1].To, range.To));
            else
                merged.Add(range);
        }
        return merged;
    }

    private static List<(int From, int To)> Invert(List<(int From, int To)> merged)
    {
        var inverted = new List<(int From, int To)>();
        var next = 0;
        foreach (var (from, to) in merged)
        {
            if (from > next)
                inverted.Add((next, from - 1));
            next = to + 1;
        }
        if (next <= MultiTermLimits.MaxCodePoint)
            inverted.Add((next, MultiTermLimits.MaxCodePoint));
        return inverted;
    }

    /// <summary>One character from disjoint ranges: two states, deterministic as built.</summary>
    private static Automaton OneOf(List<(int From, int To)> ranges)
    {
        var start = new State();
        var accept = new State { Accept = true };
        foreach (var (from, to) in ranges)
            start.AddTransition(new Transition(from, to, accept));
        return new Automaton(start);
    }

    private static int States(Automaton automaton) => automaton.GetNumberOfStates();

    private static void Check(long states)
    {
        if (states > MultiTermLimits.MaxAutomatonStates)
        {
            throw new LimitExceededException(nameof(MultiTermLimits.MaxAutomatonStates),
                $"the regular expression would need an automaton of more than {MultiTermLimits.MaxAutomatonStates:N0} states; simplify it " +
                "(large or nested repetition counts multiply the states)");
        }
    }

    /// <summary>Checks the size an operation would produce (an upper bound) before it runs, then runs it.</summary>
    private static Automaton Checked(long predicted, Func<Automaton> build)
    {
        Check(predicted);
        return build();
    }

    private bool More => _at < _text.Length;

    private bool Peek(string any) => More && any.Contains(_text[_at], StringComparison.Ordinal);

    private bool Match(char c)
    {
        if (!More || _text[_at] != c)
            return false;
        _at++;
        return true;
    }

    private FormatException Syntax(string problem) =>
        new($"invalid regular expression at its character {_at}: {problem}");
}
