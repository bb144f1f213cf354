// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Registration;

/// <summary>
/// Registers an assembly's own policies (schedulers, rate-limit policies, drop policies, replica selectors) in a
/// <see cref="PolicyCatalogBuilder"/>: the hook a tool uses to run policies it was not built with, such as the
/// emulator's <c>--policy-assembly PATH.dll</c>.
/// </summary>
/// <remarks>
/// A tool creates each public, non-abstract implementation with a public parameterless constructor once and calls
/// <see cref="Register"/> on a builder that already holds the built-in policies, so names that clash with them fail
/// as they do in code.
/// </remarks>
public interface IPolicyCatalogRegistration
{
    /// <summary>Adds this assembly's policies to <paramref name="builder"/>, by the names configurations use.</summary>
    /// <param name="builder">The builder, with the built-in policies already in it.</param>
    void Register(PolicyCatalogBuilder builder);
}
