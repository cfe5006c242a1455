using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;

namespace RavenLite.Benchmarks;

/// <summary>
/// BenchmarkDotNet's own <see cref="EventPipeProfiler"/>, with one check replaced. In 0.14.0 (the newest version on
/// this machine's feed) its validation reads .NET 10 as "not recognized", below .NET Core 3.0, and refuses every case
/// with "EventPipeProfiler supports only .NET Core 3.0+" (dotnet/BenchmarkDotNet#2699, fixed after 0.14.0). Here any
/// .NET (Core) runtime passes; everything else (the EventPipe session, the trace files) is the profiler's own.
/// </summary>
internal sealed class EventPipeProfilerOnNet10(EventPipeProfile profile) : IDiagnoser
{
    // No extra run: the profiled run is the measured one, so a profile run costs what a short run does.
    private readonly EventPipeProfiler _profiler = new(profile, performExtraBenchmarksRun: false);

    public IEnumerable<string> Ids => _profiler.Ids;

    public IEnumerable<IExporter> Exporters => _profiler.Exporters;

    public IEnumerable<IAnalyser> Analysers => _profiler.Analysers;

    public RunMode GetRunMode(BenchmarkCase benchmarkCase) => _profiler.GetRunMode(benchmarkCase);

    public void Handle(HostSignal signal, DiagnoserActionParameters parameters) => _profiler.Handle(signal, parameters);

    public IEnumerable<Metric> ProcessResults(DiagnoserResults results) => _profiler.ProcessResults(results);

    public void DisplayResults(ILogger logger) => _profiler.DisplayResults(logger);

    public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters) =>
        validationParameters.Benchmarks
            .Where(benchmark => benchmark.GetRuntime() is not CoreRuntime)
            .Select(benchmark => new ValidationError(true, "EventPipe profiling needs .NET (Core) 3.0 or later.", benchmark));
}
