namespace RavenLite.Studio.Tests.Infrastructure;

/// <summary>A fact that needs a Chromium to drive: skipped, with the reason, when none is installed.</summary>
public sealed class ChromiumFactAttribute : FactAttribute
{
    public ChromiumFactAttribute()
    {
        if (Chromium.ExecutablePath is null)
            Skip = Chromium.MissingReason;
    }
}
