using RavenLite.Database;

namespace RavenLite.Client;

/// <summary>The embedded entry points of <see cref="RavenStore"/>: the same sessions, over a database in this process.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1708:Identifiers should differ by more than case",
    Justification = "The analyzer reads the compiler's two extension blocks as members named alike.")]
public static class EmbeddedStore
{
    extension(RavenStore)
    {
        /// <summary>Opens (creating when missing) an embedded database and a store over it; disposing the store closes it.</summary>
        /// <exception cref="IOException">Another process or database has the folder open.</exception>
        public static RavenStore OpenEmbedded(DocumentDatabaseOptions options, StoreConventions? conventions = null)
        {
            ArgumentNullException.ThrowIfNull(options);
            var database = new DocumentDatabase(options);
            try
            {
                return RavenStore.ForBackend(new EmbeddedBackend(database, ownsDatabase: true), conventions);
            }
            catch
            {
                database.Dispose();
                throw;
            }
        }

        /// <summary>A store over a database the caller opened and will close; disposing the store leaves it open.</summary>
        public static RavenStore ForDatabase(DocumentDatabase database, StoreConventions? conventions = null)
        {
            ArgumentNullException.ThrowIfNull(database);
            return RavenStore.ForBackend(new EmbeddedBackend(database, ownsDatabase: false), conventions);
        }
    }

    extension(RavenStore store)
    {
        /// <summary>The embedded database, when the store is embedded; null for a remote store.</summary>
        public DocumentDatabase? Database => (store.Backend as EmbeddedBackend)?.Database;
    }
}
