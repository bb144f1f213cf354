// SPDX-License-Identifier: Apache-2.0

using Mono.Cecil;

namespace Cicero.Architecture.Tests;

/// <summary>
/// The rule on <c>InternalsVisibleTo</c> (decision 0014): a project shows its internals to test projects only, and to
/// the benchmarks, which measure internal hot paths and are never packed. What another project needs is public API.
/// </summary>
public static class FriendAssemblies
{
    /// <summary>Reads the friend assemblies an assembly names.</summary>
    public static IReadOnlyList<string> Read(string assemblyPath)
    {
        using var assembly = AssemblyDefinition.ReadAssembly(assemblyPath);
        return [.. assembly.CustomAttributes
            .Where(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.InternalsVisibleToAttribute")
            .Select(a => ((string)a.ConstructorArguments[0].Value).Split(',')[0].Trim())];
    }

    /// <summary>Lists the friends that are neither a test project nor the benchmarks.</summary>
    public static IReadOnlyList<string> Violations(string assembly, IEnumerable<string> friends) =>
        [.. friends
            .Where(f => !f.EndsWith(".Tests", StringComparison.Ordinal) && f != "Cicero.Benchmarks")
            .Select(f => $"{assembly} shows its internals to {f}: make what {f} needs a public seam instead.")];
}
