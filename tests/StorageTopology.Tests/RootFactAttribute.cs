// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>A fact that needs Linux and root: it makes device nodes of its own (mknod) in a temporary folder.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute()
    {
        if (!OperatingSystem.IsLinux() || !Environment.IsPrivilegedProcess)
        {
            Skip = "needs Linux and root to make a device node (mknod)";
        }
    }
}
