using System.Globalization;
using System.Xml.Linq;

namespace RavenLite.BenchmarkReport.Tests;

public sealed class SvgChartTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    [Fact]
    public void The_svg_is_well_formed_and_has_one_bar_per_row()
    {
        var results = Fixture.Read();

        var svg = XDocument.Parse(SvgChart.Render(results, "Title & <more>"));

        Assert.Equal(Svg + "svg", svg.Root!.Name);
        var bars = svg.Descendants(Svg + "rect").Where(rect => (string?)rect.Attribute("class") == "bar").ToList();
        Assert.Equal(results.Rows.Count(), bars.Count);
        var texts = svg.Descendants(Svg + "text").Select(text => text.Value).ToList();
        Assert.Contains("1,024 docs, \"quoted\" & <angle> (CacheEnabled=False)", texts);
        Assert.Contains("Area/FailingBenchmarks", texts);
        Assert.Contains("1.2 s", texts);
        Assert.Contains(texts, text => text.Contains("AMD EPYC", StringComparison.Ordinal) && text.Contains("2026-11-21", StringComparison.Ordinal));
        // The slowest case has the longest bar.
        var widths = bars.Select(bar => double.Parse((string)bar.Attribute("width")!, CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(widths.Max(), widths[results.Rows.ToList().FindIndex(row => row.Title == "sleep 1.2 s")]);
    }

    [Fact]
    public void The_same_results_give_the_same_bytes_whatever_the_culture()
    {
        var results = Fixture.Read();
        var first = SvgChart.Render(results, "t");
        var culture = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE"); // decimal comma
            Assert.Equal(first, SvgChart.Render(Fixture.Read(), "t"));
            Assert.DoesNotContain("1,2 s", first, StringComparison.Ordinal);
        }
        finally
        {
            CultureInfo.CurrentCulture = culture;
        }
    }

    [Fact]
    public void The_markdown_table_has_a_line_per_row()
    {
        var results = Fixture.Read();

        var lines = MarkdownTable.Render(results).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(2 + results.Rows.Count(), lines.Length);
        Assert.Contains("| Area/FailingBenchmarks | Format | Documents=1000 | 9.83 ns | 32 B |", lines);
    }

    [Fact]
    public void A_label_too_wide_for_its_column_is_cut_with_an_ellipsis_and_kept_whole_in_a_tooltip()
    {
        const string wide = "WWWW Mmmm a very long description that goes on and on past the label column width";
        var row = new BenchmarkRow("N", "C", "M", wide, "", "N.C.M", 1000, double.NaN, null);
        var results = ResultReader.Combine([new ResultFile("t", new HostInfo("", null, "", "", ""), default, [row])], []);

        var label = XDocument.Parse(SvgChart.Render(results, "t")).Descendants(Svg + "text").Single(text => text.Value.StartsWith("WWWW", StringComparison.Ordinal));

        Assert.EndsWith("…", label.Nodes().OfType<XText>().Single().Value, StringComparison.Ordinal);
        Assert.Equal(wide, label.Element(Svg + "title")!.Value);
        // The longest label of the real suite fits whole.
        Assert.True(SvgChart.EstimatedWidth("Tag:Item, PageSize 1024, read cartId (CacheEnabled=False)") < 388);
    }
}
