// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The service graph: which service calls which, and no cycle through two or more services.</summary>
internal sealed partial class ScenarioValidator
{
    // Caller and callee services, with the path of the first call stage that makes the edge.
    private readonly Dictionary<(string Caller, string Callee), string> _calls = [];
    private long _callsPerRequest = 1;

    /// <summary>
    /// Rejects a cycle in the service graph (fe -> ps -> fe), naming its path: a request could then wait on itself
    /// through the thread pools, and rates bubble up a DAG. A service calling itself (a coordinator reading from its
    /// replicas in a ring) is not a cycle.
    /// </summary>
    private void ValidateCallGraph()
    {
        var callees = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var (caller, callee) in _calls.Keys)
        {
            if (caller != callee)
            {
                (callees.TryGetValue(caller, out var list) ? list : callees[caller] = []).Add(callee);
            }
        }

        // Depth-first search with colours: grey on the current path, black when done.
        var state = new Dictionary<string, int>(StringComparer.Ordinal);
        var path = new List<string>();
        // In the order calls first appear, so the cycle reads from where requests enter (fe -> ps -> fe).
        foreach (var start in callees.Keys.ToList())
        {
            if (Visit(start) is { } cycle)
            {
                var closing = _calls[(cycle[^2], cycle[^1])];
                Error(closing + ".call", $"the service graph has a cycle: {string.Join(" -> ", cycle)}; calls between services must form a DAG (a service may call itself)");
                return;
            }
        }

        List<string>? Visit(string service)
        {
            if (state.TryGetValue(service, out var colour))
            {
                return colour == 1 ? [.. path.Skip(path.IndexOf(service)), service] : null;
            }

            state[service] = 1;
            path.Add(service);
            foreach (var callee in callees.TryGetValue(service, out var list) ? list : [])
            {
                if (Visit(callee) is { } cycle)
                {
                    return cycle;
                }
            }

            path.RemoveAt(path.Count - 1);
            state[service] = 2;
            return null;
        }
    }
}
