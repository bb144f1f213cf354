// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>Numbers every plan body of a compiled scenario in a fixed traversal order, so processes agree on the ids.</summary>
internal sealed class PlanIndex
{
    private readonly List<PlanStep[]> _bodies = [];
    private readonly Dictionary<PlanStep[], int> _ids = new(ReferenceEqualityComparer.Instance);

    public PlanIndex(CompiledScenario scenario)
    {
        foreach (var workflow in scenario.Workflows)
        {
            Add(workflow.Body);
        }
    }

    public PlanStep[] this[int id] => (uint)id < (uint)_bodies.Count
        ? _bodies[id]
        : throw new ArgumentOutOfRangeException(nameof(id), id, $"No plan body has id {id}; the scenario has {_bodies.Count}.");

    public int IdOf(PlanStep[] body) => _ids[body];

    private void Add(PlanStep[] body)
    {
        if (_ids.ContainsKey(body))
        {
            return;
        }

        _ids[body] = _bodies.Count;
        _bodies.Add(body);
        foreach (var step in body)
        {
            switch (step)
            {
                case CallStep call:
                    Add(call.Body);
                    break;
                case ParallelStep parallel:
                    foreach (var branch in parallel.Branches)
                    {
                        Add(branch);
                    }

                    break;
            }
        }
    }
}
