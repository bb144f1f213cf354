// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>Injected faults.</summary>
internal sealed partial class ScenarioValidator
{
    private void ValidateFaults(ScenarioSpec scenario)
    {
        for (var i = 0; scenario.Faults is not null && i < scenario.Faults.Count; i++)
        {
            var path = $"faults[{i}]";
            var fault = scenario.Faults[i];
            if (fault is null)
            {
                Error(path, "must not be null");
                continue;
            }

            OneOf(path + ".kind", fault.Kind, FaultKinds.All);
            if (KnownService(path + ".service", fault.Service))
            {
                var service = _services[fault.Service!];
                if (fault.Service == scenario.EntryService)
                {
                    Error(path + ".service", $"'{fault.Service}' is the entry service; faults go to services that other services call");
                }
                else if (fault.Instance < 0 || fault.Instance >= service.Instances)
                {
                    Error(path + ".instance", $"must be in 0-{service.Instances - 1} ({fault.Service} has {service.Instances} instances), was {fault.Instance}");
                }
            }

            if (NonNegative(path + ".atSeconds", fault.AtSeconds) && !(fault.UntilSeconds > fault.AtSeconds))
            {
                Error(path + ".untilSeconds", $"must be greater than atSeconds ({F(fault.AtSeconds)}), was {F(fault.UntilSeconds)}");
            }

            if (fault.Kind == FaultKinds.Slow && !(fault.Factor > 0 && double.IsFinite(fault.Factor)))
            {
                Error(path + ".factor", $"must be > 0, was {F(fault.Factor)}");
            }
        }
    }
}
