namespace RavenLite.Storage;

/// <summary>The transactional engines RavenLite can keep documents in.</summary>
public enum StorageEngineKind
{
    /// <summary>LMDB: the default on every operating system, built into RavenLite.Storage.</summary>
    Lmdb = 0,

    /// <summary>ESENT (the Windows Extensible Storage Engine): runs on Windows only; package RavenLite.Storage.Esent.</summary>
    Esent = 1,

    /// <summary>
    /// PostgreSQL (through Npgsql): documents in a database that several RavenLite servers may share; needs
    /// <see cref="StorageOptions.ConnectionString"/>; package RavenLite.Storage.Postgres.
    /// </summary>
    Postgres = 2,
}
