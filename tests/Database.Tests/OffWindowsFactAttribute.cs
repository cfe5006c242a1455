namespace RavenLite.Database.Tests;

/// <summary>A fact about behaviour off Windows; reported as skipped, with the reason, on Windows.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class OffWindowsFactAttribute : FactAttribute
{
    public OffWindowsFactAttribute()
    {
        if (OperatingSystem.IsWindows())
            Skip = "Checks behaviour off Windows; ESENT runs on Windows";
    }
}
