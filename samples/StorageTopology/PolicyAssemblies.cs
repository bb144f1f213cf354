// SPDX-License-Identifier: Apache-2.0

using System.Reflection;
using Cicero.Policies.Registration;

namespace Cicero.StorageTopology;

/// <summary>
/// <c>--policy-assembly PATH.dll</c>: loads a user's assembly and registers its policies in the catalog every run
/// resolves names against, through each public <see cref="IPolicyCatalogRegistration"/> it holds.
/// </summary>
internal static class PolicyAssemblies
{
    /// <summary>Builds the catalog: the built-in policies plus those of each assembly.</summary>
    /// <param name="paths">The assemblies' paths; none gives <see cref="PolicyCatalog.Default"/>.</param>
    /// <returns>The catalog.</returns>
    /// <exception cref="ArgumentException">An assembly cannot be loaded, registers nothing, or a registration fails (the message names the file).</exception>
    public static PolicyCatalog Load(IReadOnlyList<string> paths)
    {
        if (paths.Count == 0)
        {
            return PolicyCatalog.Default;
        }

        var builder = PolicyCatalogBuilder.CreateDefault();
        foreach (var path in paths)
        {
            Register(builder, path);
        }

        return builder.Build();
    }

    private static void Register(PolicyCatalogBuilder builder, string path)
    {
        Assembly assembly;
        Type[] types;
        try
        {
            // LoadFrom resolves the assembly's own dependencies beside it; Cicero's assemblies resolve to those already loaded.
            assembly = Assembly.LoadFrom(Path.GetFullPath(path));
            types = assembly.GetExportedTypes();
        }
        catch (Exception ex) when (ex is IOException or BadImageFormatException or ReflectionTypeLoadException or TypeLoadException or NotSupportedException or ArgumentException or UnauthorizedAccessException)
        {
            throw new ArgumentException($"--policy-assembly {CommandErrors.Echo(path)}: cannot load it ({ex.Message})", nameof(path), ex);
        }

        var registrations = types
            .Where(static t => t is { IsClass: true, IsAbstract: false } && typeof(IPolicyCatalogRegistration).IsAssignableFrom(t) && t.GetConstructor(Type.EmptyTypes) is not null)
            .OrderBy(static t => t.FullName, StringComparer.Ordinal)
            .ToList();
        if (registrations.Count == 0)
        {
            throw new ArgumentException(
                $"--policy-assembly {CommandErrors.Echo(path)}: no public class implementing {nameof(IPolicyCatalogRegistration)} with a parameterless constructor (docs/emulator.md, custom policies).",
                nameof(path));
        }

        foreach (var type in registrations)
        {
            try
            {
                ((IPolicyCatalogRegistration)Activator.CreateInstance(type)!).Register(builder);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                var cause = ex is TargetInvocationException { InnerException: { } inner } ? inner : ex;
                throw new ArgumentException($"--policy-assembly {CommandErrors.Echo(path)}: {type.FullName} failed to register its policies: {cause.Message}", nameof(path), cause);
            }
        }
    }
}
