using System.Globalization;
using RavenLite.Storage.Esent.Native;

namespace RavenLite.Storage.Esent;

/// <summary>Turns ESENT <c>JET_ERR</c> codes into exceptions whose messages name the code.</summary>
/// <remarks>
/// Damage to the database or its logs becomes <see cref="StorageCorruptedException"/>; a key ESENT would
/// have to truncate becomes <see cref="ArgumentException"/>; anything else an <see cref="IOException"/>
/// whose <see cref="Exception.HResult"/> is the <c>JET_ERR</c>.
/// </remarks>
internal static class EsentErrors
{
    /// <summary>Throws for an error (a negative code); returns success and warnings (0 or positive).</summary>
    public static int Check(int code, string operation)
    {
        if (code < 0)
            throw ToException(code, operation);
        return code;
    }

    public static Exception ToException(int code, string operation)
    {
        var message = string.Create(CultureInfo.InvariantCulture, $"{operation} failed: {Describe(code)}.");
        var hint = Hint(code);
        if (hint is not null)
            message += " " + hint;
        if (IsCorruption(code))
            return new StorageCorruptedException(message, new IOException(message, code));
        if (code is JetErr.KeyTruncated or JetErr.KeyTooBig)
            return new ArgumentException(message);
        return new IOException(message, code);
    }

    /// <summary>"JET_errRecordNotFound (-1601)", or the bare number for codes this table does not know.</summary>
    public static string Describe(int code)
    {
        var name = Name(code);
        return name is null
            ? string.Create(CultureInfo.InvariantCulture, $"ESENT error {code}")
            : string.Create(CultureInfo.InvariantCulture, $"{name} ({code})");
    }

    /// <summary>
    /// Codes that mean the database, its checkpoint or its logs are damaged or do not belong together:
    /// nothing a retry fixes; restore from a backup or repair (esentutl /p) and rebuild.
    /// </summary>
    public static bool IsCorruption(int code) => code switch
    {
        JetErr.DatabaseBufferDependenciesCorrupted or JetErr.BadPageLink or JetErr.BadParentPageLink
            or JetErr.SPAvailExtCorrupted or JetErr.SPOwnExtCorrupted or JetErr.DbTimeCorrupted
            or JetErr.BadEmptyPage or JetErr.PageTagCorrupted or JetErr.NodeCorrupted
            or JetErr.LogFileCorrupt or JetErr.BadLogSignature or JetErr.BadDbSignature
            or JetErr.BadCheckpointSignature or JetErr.CheckpointCorrupt or JetErr.DatabaseLogSetMismatch
            or JetErr.DatabaseDirtyShutdown or JetErr.ConsistentTimeMismatch or JetErr.DbTimeTooOld
            or JetErr.DbTimeTooNew or JetErr.LogTornWriteDuringHardRecovery
            or JetErr.LogCorruptDuringHardRecovery or JetErr.CommittedLogFileCorrupt
            or JetErr.LogSequenceChecksumMismatch or JetErr.PageInitializedMismatch
            or JetErr.LogReadVerifyFailure or JetErr.DbTimeBeyondMaxRequired or JetErr.ReadVerifyFailure
            or JetErr.PageNotInitialized or JetErr.DiskReadVerificationFailure or JetErr.InvalidDatabase
            or JetErr.ReadPgnoVerifyFailure or JetErr.ReadLostFlushVerifyFailure
            or JetErr.FileSystemCorruption or JetErr.RecoveryVerifyFailure or JetErr.DatabaseCorrupted
            or JetErr.AttachedDatabaseMismatch or JetErr.CatalogCorrupted or JetErr.DatabaseCorruptedNoRepair
            or JetErr.IndexBuildCorrupted or JetErr.PrimaryIndexCorrupted or JetErr.SecondaryIndexCorrupted
            or JetErr.LVCorrupted or JetErr.DerivedColumnCorruption or JetErr.LogCorrupted => true,
        _ => false,
    };

    private static string? Hint(int code) => code switch
    {
        JetErr.VersionStoreOutOfMemory or JetErr.VersionStoreOutOfMemoryAndCleanupTimedOut =>
            "The write transaction is too large for ESENT's version store; split it into smaller ones.",
        JetErr.OutOfSessions => "Too many read transactions are open at once; dispose them sooner.",
        JetErr.DiskFull or JetErr.LogDiskFull or JetErr.OutOfDatabaseSpace => "The disk is full.",
        JetErr.FileAccessDenied or JetErr.DatabaseInUse or JetErr.DatabaseLocked
            or JetErr.DatabaseSharingViolation or JetErr.SystemPathInUse or JetErr.LogFilePathInUse
            or JetErr.TempPathInUse =>
            "The database files are in use by another ESENT instance or process.",
        JetErr.PageSizeMismatch or JetErr.SystemParameterConflict =>
            "Another ESENT user in this process set a database page size other than 8 KiB.",
        JetErr.SessionSharingViolation => "A transaction or cursor was used from two threads at once.",
        JetErr.InstanceUnavailable or JetErr.DatabaseUnavailable
            or JetErr.InstanceUnavailableDueToFatalLogDiskFull =>
            "ESENT stopped this instance after a fatal error; dispose the engine and open it again.",
        _ => null,
    };

    private static string? Name(int code) => code switch
    {
        JetErr.WrnColumnNull => "JET_wrnColumnNull",
        JetErr.WrnBufferTruncated => "JET_wrnBufferTruncated",
        JetErr.WrnDatabaseAttached => "JET_wrnDatabaseAttached",
        JetErr.WrnSeekNotEqual => "JET_wrnSeekNotEqual",
        JetErr.RfsFailure => "JET_errRfsFailure",
        JetErr.FileClose => "JET_errFileClose",
        JetErr.OutOfThreads => "JET_errOutOfThreads",
        JetErr.TooManyIO => "JET_errTooManyIO",
        JetErr.TaskDropped => "JET_errTaskDropped",
        JetErr.InternalError => "JET_errInternalError",
        JetErr.DatabaseBufferDependenciesCorrupted => "JET_errDatabaseBufferDependenciesCorrupted",
        JetErr.BadPageLink => "JET_errBadPageLink",
        JetErr.BadBookmark => "JET_errBadBookmark",
        JetErr.NTSystemCallFailed => "JET_errNTSystemCallFailed",
        JetErr.BadParentPageLink => "JET_errBadParentPageLink",
        JetErr.SPAvailExtCorrupted => "JET_errSPAvailExtCorrupted",
        JetErr.SPOwnExtCorrupted => "JET_errSPOwnExtCorrupted",
        JetErr.DbTimeCorrupted => "JET_errDbTimeCorrupted",
        JetErr.KeyTruncated => "JET_errKeyTruncated",
        JetErr.BadEmptyPage => "JET_errBadEmptyPage",
        JetErr.PageTagCorrupted => "JET_errPageTagCorrupted",
        JetErr.NodeCorrupted => "JET_errNodeCorrupted",
        JetErr.KeyTooBig => "JET_errKeyTooBig",
        JetErr.InvalidLoggedOperation => "JET_errInvalidLoggedOperation",
        JetErr.LogFileCorrupt => "JET_errLogFileCorrupt",
        JetErr.MissingPreviousLogFile => "JET_errMissingPreviousLogFile",
        JetErr.LogWriteFail => "JET_errLogWriteFail",
        JetErr.LogDisabledDueToRecoveryFailure => "JET_errLogDisabledDueToRecoveryFailure",
        JetErr.LogGenerationMismatch => "JET_errLogGenerationMismatch",
        JetErr.BadLogVersion => "JET_errBadLogVersion",
        JetErr.InvalidLogSequence => "JET_errInvalidLogSequence",
        JetErr.LoggingDisabled => "JET_errLoggingDisabled",
        JetErr.LogBufferTooSmall => "JET_errLogBufferTooSmall",
        JetErr.LogSequenceEnd => "JET_errLogSequenceEnd",
        JetErr.MissingLogFile => "JET_errMissingLogFile",
        JetErr.LogDiskFull => "JET_errLogDiskFull",
        JetErr.BadLogSignature => "JET_errBadLogSignature",
        JetErr.BadDbSignature => "JET_errBadDbSignature",
        JetErr.BadCheckpointSignature => "JET_errBadCheckpointSignature",
        JetErr.CheckpointCorrupt => "JET_errCheckpointCorrupt",
        JetErr.DatabaseLogSetMismatch => "JET_errDatabaseLogSetMismatch",
        JetErr.LogFileSizeMismatch => "JET_errLogFileSizeMismatch",
        JetErr.CheckpointFileNotFound => "JET_errCheckpointFileNotFound",
        JetErr.RequiredLogFilesMissing => "JET_errRequiredLogFilesMissing",
        JetErr.LogSectorSizeMismatch => "JET_errLogSectorSizeMismatch",
        JetErr.DatabaseDirtyShutdown => "JET_errDatabaseDirtyShutdown",
        JetErr.ConsistentTimeMismatch => "JET_errConsistentTimeMismatch",
        JetErr.DbTimeTooOld => "JET_errDbTimeTooOld",
        JetErr.DbTimeTooNew => "JET_errDbTimeTooNew",
        JetErr.LogTornWriteDuringHardRecovery => "JET_errLogTornWriteDuringHardRecovery",
        JetErr.LogCorruptDuringHardRecovery => "JET_errLogCorruptDuringHardRecovery",
        JetErr.CommittedLogFilesMissing => "JET_errCommittedLogFilesMissing",
        JetErr.SectorSizeNotSupported => "JET_errSectorSizeNotSupported",
        JetErr.CommittedLogFileCorrupt => "JET_errCommittedLogFileCorrupt",
        JetErr.LogSequenceChecksumMismatch => "JET_errLogSequenceChecksumMismatch",
        JetErr.PageInitializedMismatch => "JET_errPageInitializedMismatch",
        JetErr.LogReadVerifyFailure => "JET_errLogReadVerifyFailure",
        JetErr.CheckpointDepthTooDeep => "JET_errCheckpointDepthTooDeep",
        JetErr.TransactionTooLong => "JET_errTransactionTooLong",
        JetErr.DbTimeBeyondMaxRequired => "JET_errDbTimeBeyondMaxRequired",
        JetErr.InvalidGrbit => "JET_errInvalidGrbit",
        JetErr.TermInProgress => "JET_errTermInProgress",
        JetErr.FeatureNotAvailable => "JET_errFeatureNotAvailable",
        JetErr.InvalidName => "JET_errInvalidName",
        JetErr.InvalidParameter => "JET_errInvalidParameter",
        JetErr.DatabaseFileReadOnly => "JET_errDatabaseFileReadOnly",
        JetErr.InvalidDatabaseId => "JET_errInvalidDatabaseId",
        JetErr.OutOfMemory => "JET_errOutOfMemory",
        JetErr.OutOfDatabaseSpace => "JET_errOutOfDatabaseSpace",
        JetErr.OutOfCursors => "JET_errOutOfCursors",
        JetErr.OutOfBuffers => "JET_errOutOfBuffers",
        JetErr.RecordDeleted => "JET_errRecordDeleted",
        JetErr.ReadVerifyFailure => "JET_errReadVerifyFailure",
        JetErr.PageNotInitialized => "JET_errPageNotInitialized",
        JetErr.OutOfFileHandles => "JET_errOutOfFileHandles",
        JetErr.DiskReadVerificationFailure => "JET_errDiskReadVerificationFailure",
        JetErr.DiskIO => "JET_errDiskIO",
        JetErr.InvalidPath => "JET_errInvalidPath",
        JetErr.InvalidSystemPath => "JET_errInvalidSystemPath",
        JetErr.InvalidLogDirectory => "JET_errInvalidLogDirectory",
        JetErr.RecordTooBig => "JET_errRecordTooBig",
        JetErr.InvalidDatabase => "JET_errInvalidDatabase",
        JetErr.NotInitialized => "JET_errNotInitialized",
        JetErr.AlreadyInitialized => "JET_errAlreadyInitialized",
        JetErr.InitInProgress => "JET_errInitInProgress",
        JetErr.FileAccessDenied => "JET_errFileAccessDenied",
        JetErr.BufferTooSmall => "JET_errBufferTooSmall",
        JetErr.InvalidBufferSize => "JET_errInvalidBufferSize",
        JetErr.NullKeyDisallowed => "JET_errNullKeyDisallowed",
        JetErr.NotInTransaction => "JET_errNotInTransaction",
        JetErr.MustRollback => "JET_errMustRollback",
        JetErr.VersionStoreEntryTooBig => "JET_errVersionStoreEntryTooBig",
        JetErr.VersionStoreOutOfMemoryAndCleanupTimedOut => "JET_errVersionStoreOutOfMemoryAndCleanupTimedOut",
        JetErr.VersionStoreOutOfMemory => "JET_errVersionStoreOutOfMemory",
        JetErr.SystemParamsAlreadySet => "JET_errSystemParamsAlreadySet",
        JetErr.SystemPathInUse => "JET_errSystemPathInUse",
        JetErr.LogFilePathInUse => "JET_errLogFilePathInUse",
        JetErr.TempPathInUse => "JET_errTempPathInUse",
        JetErr.InstanceNameInUse => "JET_errInstanceNameInUse",
        JetErr.SystemParameterConflict => "JET_errSystemParameterConflict",
        JetErr.InstanceUnavailable => "JET_errInstanceUnavailable",
        JetErr.DatabaseUnavailable => "JET_errDatabaseUnavailable",
        JetErr.InstanceUnavailableDueToFatalLogDiskFull => "JET_errInstanceUnavailableDueToFatalLogDiskFull",
        JetErr.OutOfSessions => "JET_errOutOfSessions",
        JetErr.WriteConflict => "JET_errWriteConflict",
        JetErr.TransTooDeep => "JET_errTransTooDeep",
        JetErr.InvalidSesid => "JET_errInvalidSesid",
        JetErr.InTransaction => "JET_errInTransaction",
        JetErr.RollbackRequired => "JET_errRollbackRequired",
        JetErr.TransReadOnly => "JET_errTransReadOnly",
        JetErr.SessionWriteConflict => "JET_errSessionWriteConflict",
        JetErr.SesidTableIdMismatch => "JET_errSesidTableIdMismatch",
        JetErr.InvalidInstance => "JET_errInvalidInstance",
        JetErr.ReadPgnoVerifyFailure => "JET_errReadPgnoVerifyFailure",
        JetErr.ReadLostFlushVerifyFailure => "JET_errReadLostFlushVerifyFailure",
        JetErr.FileSystemCorruption => "JET_errFileSystemCorruption",
        JetErr.RecoveryVerifyFailure => "JET_errRecoveryVerifyFailure",
        JetErr.DatabaseDuplicate => "JET_errDatabaseDuplicate",
        JetErr.DatabaseInUse => "JET_errDatabaseInUse",
        JetErr.DatabaseNotFound => "JET_errDatabaseNotFound",
        JetErr.DatabaseInvalidName => "JET_errDatabaseInvalidName",
        JetErr.DatabaseCorrupted => "JET_errDatabaseCorrupted",
        JetErr.DatabaseLocked => "JET_errDatabaseLocked",
        JetErr.InvalidDatabaseVersion => "JET_errInvalidDatabaseVersion",
        JetErr.PageSizeMismatch => "JET_errPageSizeMismatch",
        JetErr.TooManyInstances => "JET_errTooManyInstances",
        JetErr.DatabaseSharingViolation => "JET_errDatabaseSharingViolation",
        JetErr.AttachedDatabaseMismatch => "JET_errAttachedDatabaseMismatch",
        JetErr.DatabaseInvalidPath => "JET_errDatabaseInvalidPath",
        JetErr.CatalogCorrupted => "JET_errCatalogCorrupted",
        JetErr.PartiallyAttachedDB => "JET_errPartiallyAttachedDB",
        JetErr.DatabaseCorruptedNoRepair => "JET_errDatabaseCorruptedNoRepair",
        JetErr.TableLocked => "JET_errTableLocked",
        JetErr.TableDuplicate => "JET_errTableDuplicate",
        JetErr.TableInUse => "JET_errTableInUse",
        JetErr.ObjectNotFound => "JET_errObjectNotFound",
        JetErr.InvalidTableId => "JET_errInvalidTableId",
        JetErr.TooManyOpenTables => "JET_errTooManyOpenTables",
        JetErr.ObjectDuplicate => "JET_errObjectDuplicate",
        JetErr.IndexInvalidDef => "JET_errIndexInvalidDef",
        JetErr.IndexBuildCorrupted => "JET_errIndexBuildCorrupted",
        JetErr.PrimaryIndexCorrupted => "JET_errPrimaryIndexCorrupted",
        JetErr.SecondaryIndexCorrupted => "JET_errSecondaryIndexCorrupted",
        JetErr.ColumnTooBig => "JET_errColumnTooBig",
        JetErr.ColumnNotFound => "JET_errColumnNotFound",
        JetErr.BadColumnId => "JET_errBadColumnId",
        JetErr.LVCorrupted => "JET_errLVCorrupted",
        JetErr.DerivedColumnCorruption => "JET_errDerivedColumnCorruption",
        JetErr.RecordNotFound => "JET_errRecordNotFound",
        JetErr.RecordNoCopy => "JET_errRecordNoCopy",
        JetErr.NoCurrentRecord => "JET_errNoCurrentRecord",
        JetErr.RecordPrimaryChanged => "JET_errRecordPrimaryChanged",
        JetErr.KeyDuplicate => "JET_errKeyDuplicate",
        JetErr.AlreadyPrepared => "JET_errAlreadyPrepared",
        JetErr.KeyNotMade => "JET_errKeyNotMade",
        JetErr.UpdateNotPrepared => "JET_errUpdateNotPrepared",
        JetErr.TempFileOpenError => "JET_errTempFileOpenError",
        JetErr.TooManyAttachedDatabases => "JET_errTooManyAttachedDatabases",
        JetErr.DiskFull => "JET_errDiskFull",
        JetErr.PermissionDenied => "JET_errPermissionDenied",
        JetErr.FileNotFound => "JET_errFileNotFound",
        JetErr.FileInvalidType => "JET_errFileInvalidType",
        JetErr.FileAlreadyExists => "JET_errFileAlreadyExists",
        JetErr.LogCorrupted => "JET_errLogCorrupted",
        JetErr.InvalidOperation => "JET_errInvalidOperation",
        JetErr.AccessDenied => "JET_errAccessDenied",
        JetErr.SessionSharingViolation => "JET_errSessionSharingViolation",
        JetErr.EntryPointNotFound => "JET_errEntryPointNotFound",
        JetErr.SessionContextAlreadySet => "JET_errSessionContextAlreadySet",
        JetErr.SessionContextNotSetByThisThread => "JET_errSessionContextNotSetByThisThread",
        JetErr.SessionInUse => "JET_errSessionInUse",
        JetErr.RollbackError => "JET_errRollbackError",
        JetErr.FileIOBeyondEOF => "JET_errFileIOBeyondEOF",
        _ => null,
    };
}
