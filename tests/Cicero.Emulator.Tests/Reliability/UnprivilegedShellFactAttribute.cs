// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// A fact for the network-namespace scripts' skip paths: it needs Linux with bash and, to act as an unprivileged caller
/// when the tests run as root, util-linux's <c>setpriv</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class UnprivilegedShellFactAttribute : FactAttribute
{
    public UnprivilegedShellFactAttribute()
    {
        if (!OperatingSystem.IsLinux() || NetnsScripts.Find("bash") is null || NetnsScripts.Find("setpriv") is null)
        {
            Skip = "needs Linux with bash and setpriv (util-linux)";
        }
    }
}
