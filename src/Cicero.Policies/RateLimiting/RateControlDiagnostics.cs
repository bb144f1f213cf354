// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>The diagnostic that marks rate control's research variants (docs/decisions/0021).</summary>
internal static class RateControlDiagnostics
{
    /// <summary>
    /// The id of <see cref="System.Diagnostics.CodeAnalysis.ExperimentalAttribute"/> on the research variants of
    /// <see cref="BottleneckFairnessOptions"/>: options kept for the emulator's sweeps and Algorithm 4 as written, not
    /// for users; they may change or go without notice. Suppress it (<c>&lt;NoWarn&gt;$(NoWarn);CICERO001&lt;/NoWarn&gt;</c>)
    /// to use them anyway.
    /// </summary>
    public const string ExperimentalId = "CICERO001";

}
