namespace RavenLite.Storage;

/// <summary>
/// Names the <see cref="IStorageEngineProvider"/> of an engine assembly. The type needs a parameterless
/// constructor (it may be internal).
/// </summary>
/// <param name="providerType">The provider's type.</param>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
public sealed class StorageEngineProviderAttribute(Type providerType) : Attribute
{
    /// <summary>The provider's type.</summary>
    public Type ProviderType { get; } = providerType;
}
