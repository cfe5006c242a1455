namespace RavenLite.Storage.Esent.Native;

/// <summary>System parameter ids (<c>JET_param*</c>) from esent.h.</summary>
internal static class JetParam
{
    public const uint SystemPath = 0;
    public const uint TempPath = 1;
    public const uint LogFilePath = 2;
    public const uint BaseName = 3;
    public const uint MaxSessions = 5;
    public const uint MaxOpenTables = 6;
    public const uint MaxCursors = 8;
    public const uint MaxVerPages = 9;
    public const uint CircularLog = 17;
    public const uint Recovery = 34;
    public const uint NoInformationEvent = 50;
    public const uint DatabasePageSize = 64;
    public const uint CreatePathIfNotExist = 100;
}

/// <summary>Option bits (<c>JET_bit*</c>) from esent.h, grouped by the call that takes them.</summary>
internal static class JetBit
{
    // JetTerm2
    public const uint TermComplete = 0x1;
    public const uint TermAbrupt = 0x2;

    // JetOpenTable
    public const uint TableReadOnly = 0x4;

    // JET_INDEXCREATE.grbit
    public const uint IndexUnique = 0x1;
    public const uint IndexPrimary = 0x2;
    public const uint IndexDisallowNull = 0x4;
    public const uint IndexKeyMost = 0x8000;
    public const uint IndexDisallowTruncation = 0x10000;

    // JetMakeKey
    public const uint NewKey = 0x1;
    public const uint KeyDataZeroLength = 0x10;

    // JetSeek
    public const uint SeekEQ = 0x1;
    public const uint SeekGE = 0x8;

    // JetSetColumn
    public const uint SetZeroLength = 0x20;

    // JetBeginTransaction2
    public const uint TransactionReadOnly = 0x1;

    // JetCommitTransaction
    public const uint CommitLazyFlush = 0x1;
    public const uint WaitAllLevel0Commit = 0x8;
}

/// <summary>Column types (<c>JET_coltyp*</c>).</summary>
internal static class JetColtyp
{
    /// <summary>Binary data, long value (up to 2 GB − 1), stored as a tagged column.</summary>
    public const uint LongBinary = 11;
}

/// <summary><c>JetMove</c> row counts (<c>JET_Move*</c>); a C <c>long</c>, so 32-bit.</summary>
internal static class JetMoveRows
{
    public const int First = unchecked((int)0x80000000);
    public const int Previous = -1;
    public const int Next = 1;
    public const int Last = 0x7fffffff;
}

/// <summary><c>JetPrepareUpdate</c> options (<c>JET_prep*</c>).</summary>
internal static class JetPrep
{
    public const uint Insert = 0;
    public const uint Replace = 2;
    public const uint Cancel = 3;
}

/// <summary>Info levels for <c>JetGetTableColumnInfo</c>.</summary>
internal static class JetInfoLevel
{
    /// <summary><c>JET_ColInfo</c>: fills a <see cref="JetColumnDef"/>.</summary>
    public const uint ColInfo = 0;
}

/// <summary>Limits from esent.h.</summary>
internal static class JetLimits
{
    /// <summary><c>JET_cbKeyMost8KBytePage</c>: the largest cbKeyMost an 8 KiB-page database allows.</summary>
    public const uint KeyMost8KBytePage = 2000;

    /// <summary>Names of tables, columns and indexes: fewer than <c>JET_cbNameMost</c> (64) characters.</summary>
    public const int NameMost = 64;
}

/// <summary>
/// <c>JET_err*</c> (negative) and <c>JET_wrn*</c> (positive) codes from esent.h; the ones the engine
/// handles or names in messages.
/// </summary>
internal static class JetErr
{
    public const int Success = 0;

    // Warnings.
    public const int WrnColumnNull = 1004;
    public const int WrnBufferTruncated = 1006;
    public const int WrnDatabaseAttached = 1007;
    public const int WrnSeekNotEqual = 1039;

    // System, buffer and directory manager.
    public const int RfsFailure = -100;
    public const int FileClose = -102;
    public const int OutOfThreads = -103;
    public const int TooManyIO = -105;
    public const int TaskDropped = -106;
    public const int InternalError = -107;
    public const int DatabaseBufferDependenciesCorrupted = -255;
    public const int BadPageLink = -327;
    public const int BadBookmark = -328;
    public const int NTSystemCallFailed = -334;
    public const int BadParentPageLink = -338;
    public const int SPAvailExtCorrupted = -341;
    public const int SPOwnExtCorrupted = -343;
    public const int DbTimeCorrupted = -344;
    public const int KeyTruncated = -346;
    public const int BadEmptyPage = -351;
    public const int PageTagCorrupted = -357;
    public const int NodeCorrupted = -358;
    public const int KeyTooBig = -408;

    // Logging and recovery.
    public const int InvalidLoggedOperation = -500;
    public const int LogFileCorrupt = -501;
    public const int MissingPreviousLogFile = -509;
    public const int LogWriteFail = -510;
    public const int LogDisabledDueToRecoveryFailure = -511;
    public const int LogGenerationMismatch = -513;
    public const int BadLogVersion = -514;
    public const int InvalidLogSequence = -515;
    public const int LoggingDisabled = -516;
    public const int LogBufferTooSmall = -517;
    public const int LogSequenceEnd = -519;
    public const int MissingLogFile = -528;
    public const int LogDiskFull = -529;
    public const int BadLogSignature = -530;
    public const int BadDbSignature = -531;
    public const int BadCheckpointSignature = -532;
    public const int CheckpointCorrupt = -533;
    public const int DatabaseLogSetMismatch = -539;
    public const int LogFileSizeMismatch = -541;
    public const int CheckpointFileNotFound = -542;
    public const int RequiredLogFilesMissing = -543;
    public const int LogSectorSizeMismatch = -546;
    public const int DatabaseDirtyShutdown = -550;
    public const int ConsistentTimeMismatch = -551;
    public const int DbTimeTooOld = -566;
    public const int DbTimeTooNew = -567;
    public const int LogTornWriteDuringHardRecovery = -571;
    public const int LogCorruptDuringHardRecovery = -574;
    public const int CommittedLogFilesMissing = -582;
    public const int SectorSizeNotSupported = -583;
    public const int CommittedLogFileCorrupt = -586;
    public const int LogSequenceChecksumMismatch = -590;
    public const int PageInitializedMismatch = -596;
    public const int LogReadVerifyFailure = -612;
    public const int CheckpointDepthTooDeep = -614;
    public const int TransactionTooLong = -618;
    public const int DbTimeBeyondMaxRequired = -625;

    // API and resources.
    public const int InvalidGrbit = -900;
    public const int TermInProgress = -1000;
    public const int FeatureNotAvailable = -1001;
    public const int InvalidName = -1002;
    public const int InvalidParameter = -1003;
    public const int DatabaseFileReadOnly = -1008;
    public const int InvalidDatabaseId = -1010;
    public const int OutOfMemory = -1011;
    public const int OutOfDatabaseSpace = -1012;
    public const int OutOfCursors = -1013;
    public const int OutOfBuffers = -1014;
    public const int RecordDeleted = -1017;
    public const int ReadVerifyFailure = -1018;
    public const int PageNotInitialized = -1019;
    public const int OutOfFileHandles = -1020;
    public const int DiskReadVerificationFailure = -1021;
    public const int DiskIO = -1022;
    public const int InvalidPath = -1023;
    public const int InvalidSystemPath = -1024;
    public const int InvalidLogDirectory = -1025;
    public const int RecordTooBig = -1026;
    public const int InvalidDatabase = -1028;
    public const int NotInitialized = -1029;
    public const int AlreadyInitialized = -1030;
    public const int InitInProgress = -1031;
    public const int FileAccessDenied = -1032;
    public const int BufferTooSmall = -1038;
    public const int InvalidBufferSize = -1047;
    public const int NullKeyDisallowed = -1053;
    public const int NotInTransaction = -1054;
    public const int MustRollback = -1057;
    public const int VersionStoreEntryTooBig = -1065;
    public const int VersionStoreOutOfMemoryAndCleanupTimedOut = -1066;
    public const int VersionStoreOutOfMemory = -1069;
    public const int SystemParamsAlreadySet = -1082;
    public const int SystemPathInUse = -1083;
    public const int LogFilePathInUse = -1084;
    public const int TempPathInUse = -1085;
    public const int InstanceNameInUse = -1086;
    public const int SystemParameterConflict = -1087;
    public const int InstanceUnavailable = -1090;
    public const int DatabaseUnavailable = -1091;
    public const int InstanceUnavailableDueToFatalLogDiskFull = -1092;
    public const int OutOfSessions = -1101;
    public const int WriteConflict = -1102;
    public const int TransTooDeep = -1103;
    public const int InvalidSesid = -1104;
    public const int InTransaction = -1108;
    public const int RollbackRequired = -1109;
    public const int TransReadOnly = -1110;
    public const int SessionWriteConflict = -1111;
    public const int SesidTableIdMismatch = -1114;
    public const int InvalidInstance = -1115;
    public const int ReadPgnoVerifyFailure = -1118;
    public const int ReadLostFlushVerifyFailure = -1119;
    public const int FileSystemCorruption = -1121;
    public const int RecoveryVerifyFailure = -1123;

    // Databases and tables.
    public const int DatabaseDuplicate = -1201;
    public const int DatabaseInUse = -1202;
    public const int DatabaseNotFound = -1203;
    public const int DatabaseInvalidName = -1204;
    public const int DatabaseCorrupted = -1206;
    public const int DatabaseLocked = -1207;
    public const int InvalidDatabaseVersion = -1209;
    public const int PageSizeMismatch = -1213;
    public const int TooManyInstances = -1214;
    public const int DatabaseSharingViolation = -1215;
    public const int AttachedDatabaseMismatch = -1216;
    public const int DatabaseInvalidPath = -1217;
    public const int CatalogCorrupted = -1220;
    public const int PartiallyAttachedDB = -1221;
    public const int DatabaseCorruptedNoRepair = -1224;
    public const int TableLocked = -1302;
    public const int TableDuplicate = -1303;
    public const int TableInUse = -1304;
    public const int ObjectNotFound = -1305;
    public const int InvalidTableId = -1310;
    public const int TooManyOpenTables = -1311;
    public const int ObjectDuplicate = -1314;
    public const int IndexInvalidDef = -1406;
    public const int IndexBuildCorrupted = -1412;
    public const int PrimaryIndexCorrupted = -1413;
    public const int SecondaryIndexCorrupted = -1414;

    // Records and columns.
    public const int ColumnTooBig = -1506;
    public const int ColumnNotFound = -1507;
    public const int BadColumnId = -1517;
    public const int LVCorrupted = -1526;
    public const int DerivedColumnCorruption = -1529;
    public const int RecordNotFound = -1601;
    public const int RecordNoCopy = -1602;
    public const int NoCurrentRecord = -1603;
    public const int RecordPrimaryChanged = -1604;
    public const int KeyDuplicate = -1605;
    public const int AlreadyPrepared = -1607;
    public const int KeyNotMade = -1608;
    public const int UpdateNotPrepared = -1609;

    // Files and other.
    public const int TempFileOpenError = -1803;
    public const int TooManyAttachedDatabases = -1805;
    public const int DiskFull = -1808;
    public const int PermissionDenied = -1809;
    public const int FileNotFound = -1811;
    public const int FileInvalidType = -1812;
    public const int FileAlreadyExists = -1814;
    public const int LogCorrupted = -1852;
    public const int InvalidOperation = -1906;
    public const int AccessDenied = -1907;
    public const int SessionSharingViolation = -1910;
    public const int EntryPointNotFound = -1911;
    public const int SessionContextAlreadySet = -1912;
    public const int SessionContextNotSetByThisThread = -1913;
    public const int SessionInUse = -1914;
    public const int RollbackError = -1917;
    public const int FileIOBeyondEOF = -4001;
}
