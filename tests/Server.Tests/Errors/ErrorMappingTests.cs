using Microsoft.AspNetCore.Http;
using RavenLite.Server.Errors;
using RavenLite.Storage;

namespace RavenLite.Server.Tests.Errors;

/// <summary>Exceptions the routes cannot easily be made to throw over HTTP still get their status and code.</summary>
public sealed class ErrorMappingTests
{
    public static IEnumerable<object[]> Exceptions()
    {
        yield return [new ObjectDisposedException("db"), 503, ErrorCodes.Unavailable];
        yield return [new StorageCorruptedException("damaged"), 500, ErrorCodes.Internal];
        yield return [new StorageFullException("The disk holding 'data' is full."), 507, ErrorCodes.StorageFull];
        yield return [new InvalidOperationException("a bug"), 500, ErrorCodes.Internal];
        yield return [new TimeoutException("still stale"), 504, ErrorCodes.IndexStale];
        yield return [new QueryException("Cannot parse query"), 400, ErrorCodes.QueryInvalid];
        yield return [new IndexNotFoundException("Orders"), 404, ErrorCodes.IndexNotFound];
        yield return [new ArgumentException("bad key", "key"), 400, ErrorCodes.BadRequest];
        yield return [new BadHttpRequestException("too big", StatusCodes.Status413PayloadTooLarge), 413, ErrorCodes.PayloadTooLarge];
        yield return [new BadHttpRequestException("bad framing"), 400, ErrorCodes.BadRequest];
        yield return [RequestException.NotLoopback(), 403, ErrorCodes.NotLoopback];
        yield return [new StorageUnavailableException("no primary", readOnly: false, outcomeUnknown: false, new IOException()), 503, ErrorCodes.StorageUnavailable];
        yield return [new StorageUnavailableException("a standby", readOnly: true, outcomeUnknown: false, new IOException()), 403, ErrorCodes.ReadOnly];
    }

    [Theory]
    [MemberData(nameof(Exceptions))]
    public void Each_exception_gets_its_status_and_code(Exception exception, int status, string code)
    {
        var (problem, unexpected) = ErrorMapping.Map(exception);
        Assert.Equal(status, problem.Status);
        Assert.Equal(code, problem.Extensions[ErrorCodes.CodeMember]);
        Assert.Equal(status == 500, unexpected);
        Assert.False(string.IsNullOrWhiteSpace(problem.Title));
        if (unexpected)
            Assert.Equal(ErrorMapping.UnexpectedMessage, problem.Detail);
    }

    [Fact]
    public void An_ArgumentException_loses_its_parameter_suffix()
    {
        var (problem, _) = ErrorMapping.Map(new ArgumentException("A document key cannot be empty.", "key"));
        Assert.Equal("A document key cannot be empty.", problem.Detail);
    }

    [Fact]
    public void An_ArgumentOutOfRangeException_loses_its_parameter_suffix_and_keeps_its_actual_value_on_one_line()
    {
        var (problem, _) = ErrorMapping.Map(new ArgumentOutOfRangeException("pageSize", 5000, "At most 1024."));
        Assert.Equal("At most 1024. Actual value was 5000.", problem.Detail);
    }

    [Fact]
    public void A_refused_setting_names_its_switch_with_the_same_message_rule()
    {
        var message = Hosting.ServerConfiguration.WithSwitchName(new ArgumentOutOfRangeException("CacheSizeMb", -1, "Cannot be negative."));
        Assert.Equal("CacheSizeMb (--cache-size-mb): Cannot be negative. Actual value was -1.", message);
    }

    [Fact]
    public void A_conflict_carries_its_key_etags_and_command_index_as_members()
    {
        var (problem, _) = ErrorMapping.Map(new ConcurrencyException("carts/1", 0, 12, 3));
        Assert.Equal(409, problem.Status);
        Assert.Equal("carts/1", problem.Extensions[ErrorCodes.KeyMember]);
        Assert.Equal("0", problem.Extensions[ErrorCodes.ExpectedEtagMember]);
        Assert.Equal("12", problem.Extensions[ErrorCodes.ActualEtagMember]);
        Assert.Equal(3, problem.Extensions[ErrorCodes.CommandIndexMember]);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Storage_unavailable_says_whether_the_write_may_have_been_stored(bool outcomeUnknown)
    {
        var (problem, _) = ErrorMapping.Map(new StorageUnavailableException("lost", readOnly: false, outcomeUnknown, new IOException()));
        Assert.Equal(outcomeUnknown, problem.Extensions[ErrorCodes.OutcomeUnknownMember]);
    }

    [Fact]
    public void A_limit_exceeded_is_a_400_naming_the_limit_before_the_ArgumentException_it_is()
    {
        var (problem, unexpected) = ErrorMapping.Map(new LimitExceededException("MaxAutomatonStates", "too many states"));
        Assert.False(unexpected);
        Assert.Equal(400, problem.Status);
        Assert.Equal(ErrorCodes.LimitExceeded, problem.Extensions[ErrorCodes.CodeMember]);
        Assert.Equal("MaxAutomatonStates", problem.Extensions[ErrorCodes.LimitMember]);
        Assert.Equal("too many states", problem.Detail);
    }

    [Fact]
    public void The_http_api_document_lists_every_code()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "RavenLite.sln")))
            directory = directory.Parent;
        Assert.NotNull(directory);
        var text = File.ReadAllText(Path.Combine(directory.FullName, "docs", "http-api.md"));
        Assert.All(ErrorCodes.All, code => Assert.Contains($"| `{code}` |", text, StringComparison.Ordinal));
    }
}
