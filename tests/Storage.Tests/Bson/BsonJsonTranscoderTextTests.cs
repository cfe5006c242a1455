using System.Text;
using RavenLite.Storage.Tests.Infrastructure;
using static RavenLite.Storage.Tests.Infrastructure.BsonBytes;

namespace RavenLite.Storage.Tests.Bson;

/// <summary>Text (names, strings, regular expressions) reads exactly as through Newtonsoft's BsonDataReader.</summary>
public sealed class BsonJsonTranscoderTextTests
{
    [Fact]
    public void Awkward_text_in_names_values_and_patterns_matches_Newtonsoft()
    {
        string[] texts =
        [
            "\"quoted\" and \\backslashed\\", "\u0000\u0001\u001f\u007f\t\n\r\b\f", "Zoë 日本 עברית", "\U0001F600\U0001F9D1\u200D\U0001F4BB",
            "\u2028\u2029", "<script>&amp;'", "\ufeff\ufffd\ufffe\uffff", "\U0010FFFF\U000E0001", new string('x', 129),
            new string('é', 64) + "a", "a" + new string('日', 120), string.Concat(Enumerable.Repeat("\U0001F600", 40)), "a" + new string('日', 400),
        ];
        foreach (var text in texts)
        {
            var noNul = text.Replace("\0", "", StringComparison.Ordinal);
            Transcoding.AssertSameAsOld(One(BsonType.String, Str(text)), text);
            Transcoding.AssertSameAsOld(Doc(El(BsonType.String, noNul, Str(text)), El(BsonType.Null, noNul, [])), text);
            Transcoding.AssertSameAsOld(One(BsonType.Regex, [.. CStr(noNul), .. CStr(noNul)]), text);
        }
    }

    [Fact]
    public void Invalid_utf8_reads_with_replacement_characters_as_before()
    {
        byte[][] texts = [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80, 0x80]];
        foreach (var text in texts)
        {
            foreach (var length in new[] { 1, 60, 127, 128, 129, 200, 300 })
            {
                var bytes = Enumerable.Repeat(text, length).SelectMany(b => b).Take(length).ToArray();
                byte[] mixed = [.. Encoding.UTF8.GetBytes(new string('日', length / 3)), .. bytes];
                Transcoding.AssertSameAsOld(One(BsonType.String, Str(bytes)));
                Transcoding.AssertSameAsOld(One(BsonType.String, Str(mixed)));
                Transcoding.AssertSameAsOld(Doc(El(BsonType.Null, bytes, [])));
                Transcoding.AssertSameAsOld(Doc(El(BsonType.Null, mixed, [])));
            }
        }
    }

    [Fact]
    public void Long_non_ascii_names_come_out_as_the_old_reader_mangled_them()
    {
        // The old reader decoded names in 128-byte chunks and lost bytes of characters split across two chunk
        // boundaries: this name came back with a replacement character and without a 日. Kept, since stored
        // documents have always read that way.
        var name = "a" + new string('日', 120);
        var read = Transcoding.New(Doc(El(BsonType.Null, name, [])));
        Transcoding.AssertSameAsOld(Doc(El(BsonType.Null, name, [])));
        Assert.Contains('\ufffd', read.Text);
        Assert.DoesNotContain(name, read.Text, StringComparison.Ordinal);
    }
}
