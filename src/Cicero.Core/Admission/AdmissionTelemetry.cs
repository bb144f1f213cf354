// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>What admission reports: an outcome to the local model and the meters, and the admission queue's length.</summary>
internal static class AdmissionTelemetry
{
    public static void RecordOutcome(WorkflowSlot slot, WorkflowModel? model, DropReason reason)
    {
        // The tag is built only for a listener: with none, an outcome costs two flag tests.
        if (reason == DropReason.None)
        {
            model?.RecordAdmitted();
            if (CiceroInstruments.RequestsAdmitted.Enabled)
            {
                CiceroInstruments.RequestsAdmitted.Add(1, WorkflowTag(slot));
            }
        }
        else if (CiceroInstruments.RequestsDropped.Enabled)
        {
            CiceroInstruments.RequestsDropped.Add(
                1, WorkflowTag(slot), new KeyValuePair<string, object?>(CiceroTelemetry.DropReasonTag, CiceroInstruments.ToTag(reason)));
        }
    }

    public static void RecordQueueLength(int delta)
    {
        if (CiceroInstruments.AdmissionQueueLength.Enabled)
        {
            CiceroInstruments.AdmissionQueueLength.Add(delta);
        }
    }

    private static KeyValuePair<string, object?> WorkflowTag(WorkflowSlot slot) => new(CiceroTelemetry.WorkflowTag, slot.Id.Value);
}
