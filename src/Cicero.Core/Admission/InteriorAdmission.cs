// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>
/// What an instance does with an interior hop, a call that carries the context of a request admitted at its entry
/// (docs/decisions/0022). Entries always admit against σ.
/// </summary>
public enum InteriorAdmission
{
    /// <summary>Only counted: its arrival per caller and its admission, from which the rates announced upstream are computed.</summary>
    Count,

    /// <summary>
    /// Counted, except that while a local resource it loads is congested, a workflow sending more here than its local
    /// fair share (the local policy's rate) is refused above that share. The default.
    /// </summary>
    LocalFairShare,

    /// <summary>Admitted against this instance's σ and judged by its drop policy, as at an entry.</summary>
    Full,
}
