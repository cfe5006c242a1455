using Xunit.Abstractions;
using Xunit.Sdk;

namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>
/// A test that runs once per storage engine, with the <see cref="StorageEngineKind"/> as its argument.
/// ESENT runs on Windows; elsewhere its case is reported as skipped with the reason "ESENT requires Windows".
/// PostgreSQL runs on a throw-away cluster (<see cref="TestPostgres"/>); its case is skipped, with the reason, only
/// when that cannot be started.
/// </summary>
[XunitTestCaseDiscoverer("RavenLite.Storage.Tests.Infrastructure.EngineTheoryDiscoverer", "RavenLite.Storage.Tests")]
[AttributeUsage(AttributeTargets.Method)]
public sealed class EngineTheoryAttribute : FactAttribute;

/// <summary>Makes one test case per engine for <see cref="EngineTheoryAttribute"/>.</summary>
public sealed class EngineTheoryDiscoverer(IMessageSink diagnostics) : IXunitTestCaseDiscoverer
{
    public const string EsentSkipReason = "ESENT requires Windows";

    public IEnumerable<IXunitTestCase> Discover(ITestFrameworkDiscoveryOptions discoveryOptions, ITestMethod testMethod,
        IAttributeInfo factAttribute)
    {
        var display = discoveryOptions.MethodDisplayOrDefault();
        var displayOptions = discoveryOptions.MethodDisplayOptionsOrDefault();
        foreach (var engine in Enum.GetValues<StorageEngineKind>())
        {
            object[] arguments = [engine];
            var skipReason = engine switch
            {
                StorageEngineKind.Esent when !OperatingSystem.IsWindows() => EsentSkipReason,
                StorageEngineKind.Postgres => TestPostgres.SkipReason,
                _ => null,
            };
            if (skipReason is not null)
                yield return new XunitSkippedDataRowTestCase(diagnostics, display, displayOptions, testMethod, skipReason, arguments);
            else
                yield return new XunitTestCase(diagnostics, display, displayOptions, testMethod, arguments);
        }
    }
}
