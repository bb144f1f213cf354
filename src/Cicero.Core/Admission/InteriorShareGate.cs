// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>
/// Interior hops (docs/decisions/0022): counts them, and says per workflow whether
/// <see cref="InteriorAdmission.LocalFairShare"/> holds them to σ now, which it does only while this instance is a
/// bottleneck for the workflow and the workflow sends more here than its local fair share
/// (<see cref="RateAdaptation.LocalBottleneckShare"/>); σ is then that share.
/// </summary>
/// <remarks>Armed by the rate adaptation controller once per interval; read by every interior hop. Thread-safe.</remarks>
internal sealed class InteriorShareGate(WorkflowRegistry registry, LocalModel? model)
{
    private readonly bool[] _armed = new bool[registry.SlotCapacity];

    /// <summary>Counts an interior hop's arrival (per caller) and its admission, without holding it to σ.</summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <returns>Admitted.</returns>
    public AdmissionResult Count(RequestContext context, string? caller)
    {
        ArgumentNullException.ThrowIfNull(context);
        Count(registry.Resolve(context), caller);
        return AdmissionResult.Admitted;
    }

    /// <summary>Arms or disarms the workflow's gate: armed, its interior hops are admitted against σ.</summary>
    /// <param name="slot">The workflow's registry slot index.</param>
    /// <param name="armed">Whether it sends more than its fair share to a local bottleneck now.</param>
    public void Arm(int slot, bool armed) => Volatile.Write(ref _armed[slot], armed);

    /// <summary>
    /// Counts an interior hop unless <see cref="InteriorAdmission.LocalFairShare"/> holds the workflow to σ now, resolving
    /// the workflow once for both.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <returns><see langword="true"/> when counted; <see langword="false"/> while the gate is armed (admit it against σ).</returns>
    public bool TryCountUnarmed(RequestContext context, string? caller)
    {
        ArgumentNullException.ThrowIfNull(context);
        var slot = registry.Resolve(context);
        if (Volatile.Read(ref _armed[slot.Index]))
        {
            return false;
        }

        Count(slot, caller);
        return true;
    }

    private void Count(WorkflowSlot slot, string? caller)
    {
        var workflowModel = model?.Get(slot);
        workflowModel?.RecordArrival(caller);
        AdmissionTelemetry.RecordOutcome(slot, workflowModel, DropReason.None);
    }
}
