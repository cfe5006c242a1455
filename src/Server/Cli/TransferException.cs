namespace RavenLite.Server.Cli;

/// <summary>An export or import that cannot go on: the message says why, and what was written before it stopped.</summary>
internal sealed class TransferException(string message, Exception? inner = null) : Exception(message, inner);
