namespace RavenLite.Storage.Tests.Infrastructure;

/// <summary>A test that needs PostgreSQL: skipped, with the reason, only when <see cref="TestPostgres"/> could not start one.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class PostgresFactAttribute : FactAttribute
{
    public PostgresFactAttribute() => Skip = TestPostgres.SkipReason;
}
