using System.Reflection;

namespace RavenLite.Client.Copying;

/// <summary>What the copier knows about a value of a member's declared type: how to copy it and how to compare two.</summary>
internal abstract record ValueShape(Type Type);

/// <summary>An immutable value (string, number, enum, date, <see cref="Guid"/>, ...): shared, never copied.</summary>
internal sealed record LeafShape(Type Type) : ValueShape(Type);

/// <summary>A class the copier handles member by member, through the plan of <see cref="Type"/>.</summary>
internal sealed record ObjectShape(Type Type) : ValueShape(Type);

/// <summary>A one-dimensional array.</summary>
internal sealed record ArrayShape(Type Type, ValueShape Element) : ValueShape(Type);

/// <summary>A <see cref="List{T}"/>.</summary>
internal sealed record ListShape(Type Type, ValueShape Element) : ValueShape(Type);

/// <summary>A <see cref="HashSet{T}"/> of leaves (a set of mutable objects has no equality to copy faithfully).</summary>
internal sealed record SetShape(Type Type, Type Element) : ValueShape(Type);

/// <summary>A <see cref="Dictionary{TKey,TValue}"/> with leaf keys.</summary>
internal sealed record DictionaryShape(Type Type, Type Key, ValueShape Value) : ValueShape(Type);

/// <summary>One member Newtonsoft reads and writes, and the shape of its value.</summary>
internal sealed record MemberPlan(MemberInfo Member, ValueShape Shape);

/// <summary>How to copy one class: create it with its parameterless constructor, then copy each member.</summary>
internal sealed record ObjectPlan(Type Type, IReadOnlyList<MemberPlan> Members);
