using RavenLite.Storage.Bson;

namespace RavenLite.Storage.Documents;

/// <summary>A batch command checked and encoded before the write transaction starts, so bad input writes nothing.</summary>
internal sealed record PreparedCommand(BatchCommand Command, byte[] StorageKey, string? EntityName)
{
    public static PreparedCommand[] PrepareAll(IReadOnlyList<BatchCommand> commands, bool single)
    {
        if (commands.Count == 0)
            throw new ArgumentException("A batch needs at least one command.", nameof(commands));
        var prepared = new PreparedCommand[commands.Count];
        // A bulk insert gives every put of a type the same metadata: its entity name is read once (the content is immutable).
        var lastMetadata = (Content: (DocumentContent?)null, EntityName: (string?)null);
        for (var i = 0; i < commands.Count; i++)
        {
            try
            {
                prepared[i] = Prepare(commands[i], ref lastMetadata);
            }
            catch (ArgumentException ex) when (!single)
            {
                throw new ArgumentException($"Batch command {i}: {WithoutParameterName(ex)} Nothing was written.", ex);
            }
        }
        return prepared;
    }

    /// <summary>ArgumentException appends " (Parameter 'x')" to its message; a batch error reads better without it.</summary>
    private static string WithoutParameterName(ArgumentException ex)
    {
        var suffix = $" (Parameter '{ex.ParamName}')";
        return ex.ParamName is not null && ex.Message.EndsWith(suffix, StringComparison.Ordinal)
            ? ex.Message[..^suffix.Length]
            : ex.Message;
    }

    private static PreparedCommand Prepare(BatchCommand command, ref (DocumentContent? Content, string? EntityName) lastMetadata)
    {
        ArgumentNullException.ThrowIfNull(command);
        DocumentKey.Validate(command.Key, "key");
        if (command.ExpectedEtag < 0)
            throw new ArgumentOutOfRangeException(nameof(command), command.ExpectedEtag, "An expected etag cannot be negative.");
        var storageKey = Documents.StorageKey.ToStorage(command.Key);
        if (command is PatchCommand patch)
            ArgumentNullException.ThrowIfNull(patch.Changes, "patch");
        if (command is not PutCommand put)
            return new PreparedCommand(command, storageKey, null);

        ArgumentNullException.ThrowIfNull(put.Data, "data");
        ArgumentNullException.ThrowIfNull(put.Metadata, "metadata");
        var size = (long)put.Data.Bson.Length + put.Metadata.Bson.Length;
        if (size > BsonCodec.MaxDocumentBytes)
            throw new ArgumentException(
                $"Document '{command.Key}' is {size:N0} bytes as BSON; the limit is {BsonCodec.MaxDocumentBytes:N0} bytes (16 MiB).",
                nameof(command));
        if (!ReferenceEquals(put.Metadata, lastMetadata.Content))
        {
            var entityName = BsonCodec.ReadTopLevelString(put.Metadata.Bson.Span, MetadataNames.EntityName);
            lastMetadata = (put.Metadata, string.IsNullOrEmpty(entityName) ? null : entityName);
        }
        return new PreparedCommand(command, storageKey, lastMetadata.EntityName);
    }
}
