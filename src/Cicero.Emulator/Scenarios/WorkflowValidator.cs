// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Checks a scenario's workflows and their stages, each at the service that runs it, and then the service graph their
/// calls make (no cycle through two or more services).
/// </summary>
internal sealed class WorkflowValidator
{
    // Deep DAGs are almost certainly a mistake and would make the runner's recursion unbounded.
    private const int MaxStageDepth = 16;
    private readonly ScenarioChecks _checks;

    // Caller and callee services, with the path of the first call stage that makes the edge.
    private readonly Dictionary<(string Caller, string Callee), string> _calls = [];
    private long _callsPerRequest = 1;

    public WorkflowValidator(ScenarioChecks checks) => _checks = checks;

    public void Validate(ScenarioSpec scenario)
    {
        var workflows = scenario.Workflows;
        if (workflows is null || workflows.Count == 0)
        {
            _checks.Error("workflows", "must list at least one workflow");
            return;
        }

        for (var i = 0; i < workflows.Count; i++)
        {
            var path = $"workflows[{i}]";
            var workflow = workflows[i];
            if (workflow is null)
            {
                _checks.Error(path, "must not be null");
                continue;
            }

            if (_checks.Name(path + ".name", workflow.Name) && !_checks.Workflows.Add(workflow.Name!))
            {
                _checks.Error(path + ".name", $"duplicate workflow name '{workflow.Name}'");
            }

            _checks.AtLeast(path + ".partitions", workflow.Partitions, 1);
            _checks.AtMost(path + ".partitions", workflow.Partitions, ScenarioLimits.MaxPlacement, "partitions");
            if (workflow.DeadlineMs is { } deadline)
            {
                _checks.Positive(path + ".deadlineMs", deadline);
            }

            if (workflow.LatencySloMs is { } slo && _checks.Positive(path + ".latencySloMs", slo))
            {
                _checks.WorkflowsWithSlo++;
            }

            ValidateTable(path, workflow);

            var entry = workflow.Entry ?? scenario.EntryService;
            if (workflow.Entry is not null && !_checks.KnownService(path + ".entry", workflow.Entry))
            {
                continue;
            }

            if (workflow.Stages is null)
            {
                _checks.Error(path + ".stages", "is required");
            }
            else if (_checks.Services.ContainsKey(entry ?? string.Empty))
            {
                ValidateStages(path + ".stages", workflow.Stages, entry!, 1);
            }
        }
    }

    private void ValidateTable(string path, WorkflowSpec workflow)
    {
        if (workflow.Table is not null && !_checks.Name(path + ".table", workflow.Table))
        {
            return;
        }

        // Placement is per (table, partition), so a shared table must be cut into the same partitions by all its users.
        var table = workflow.Table ?? workflow.Name;
        if (table is null)
        {
            return;
        }

        if (!_checks.Tables.TryGetValue(table, out var first))
        {
            _checks.Tables[table] = (workflow.Name ?? string.Empty, workflow.Partitions);
        }
        else if (first.Partitions != workflow.Partitions)
        {
            _checks.Error(path + ".partitions", $"workflows sharing table '{table}' must have the same partitions; '{first.Workflow}' has {first.Partitions}, this one {workflow.Partitions}");
        }
    }

    private void ValidateStages(string path, IList<StageSpec> stages, string service, int depth)
    {
        if (depth > MaxStageDepth)
        {
            _checks.Error(path, $"stages nest deeper than {MaxStageDepth} levels");
            return;
        }

        for (var s = 0; s < stages.Count; s++)
        {
            var stagePath = $"{path}[{s}]";
            var stage = stages[s];
            if (stage is null)
            {
                _checks.Error(stagePath, "must not be null");
                continue;
            }

            var shapes = (stage.Use is null ? 0 : 1) + (stage.Call is null ? 0 : 1) + (stage.Parallel is null ? 0 : 1);
            if (shapes != 1)
            {
                _checks.Error(stagePath, $"must set exactly one of use, call or parallel, set {shapes}");
                continue;
            }

            if (stage.Use is not null)
            {
                ValidateUse(stagePath, stage, service);
            }
            else if (stage.Call is not null)
            {
                ValidateCall(stagePath, stage, service, depth);
            }
            else
            {
                if (stage.Parallel!.Count == 0)
                {
                    _checks.Error(stagePath + ".parallel", "must list at least one branch");
                }

                for (var b = 0; b < stage.Parallel.Count; b++)
                {
                    if (stage.Parallel[b] is null)
                    {
                        _checks.Error($"{stagePath}.parallel[{b}]", "must not be null");
                        continue;
                    }

                    ValidateStages($"{stagePath}.parallel[{b}]", stage.Parallel[b], service, depth + 1);
                }
            }
        }
    }

    private void ValidateUse(string path, StageSpec stage, string service)
    {
        var resource = FindResource(_checks.Services[service], stage.Use!);
        if (resource is null)
        {
            var names = _checks.Services[service].Resources?.Where(r => r?.Name is not null).Select(r => r.Name!) ?? [];
            _checks.Error(path + ".use", $"service '{service}' has no resource '{stage.Use}'; it has: {ScenarioChecks.Known(names)}");
        }
        else if (resource.Kind is ResourceKinds.ThreadPool or ResourceKinds.ConnectionPool)
        {
            _checks.Error(path + ".use", $"'{stage.Use}' is a {resource.Kind}, held implicitly; stages may use only disk or compute resources");
        }

        if (stage.ServiceTime is null)
        {
            _checks.Error(path + ".serviceTime", "is required for a use stage");
        }
        else
        {
            _checks.Distribution(path + ".serviceTime", stage.ServiceTime);
        }

        if (stage.Stages is not null)
        {
            _checks.Error(path + ".stages", "applies only to call stages");
        }
    }

    private void ValidateCall(string path, StageSpec stage, string service, int depth)
    {
        if (stage.ServiceTime is not null)
        {
            _checks.Error(path + ".serviceTime", "applies only to use stages");
        }

        _checks.AtLeast(path + ".count", stage.Count, 1);
        _checks.AtMost(path + ".count", stage.Count, ScenarioLimits.MaxCallCount, "calls");
        if (!_checks.KnownService(path + ".call", stage.Call))
        {
            return;
        }

        _calls.TryAdd((service, stage.Call!), path);

        var route = _checks.Routes.TryGetValue((service, stage.Call!), out var found) ? found : null;
        if (_checks.OneOf(path + ".replicas", stage.Replicas, ReplicaTargets.Values)
            && stage.Replicas != ReplicaTargets.Selected
            && route?.Strategy != RoutingStrategies.Blocks)
        {
            _checks.Error(path + ".replicas", $"'{stage.Replicas}' needs a blocks route from '{service}' to '{stage.Call}'");
        }

        if (stage.Stages is not null)
        {
            var outer = _callsPerRequest;
            _callsPerRequest *= Math.Max(1, Math.Min(stage.Count, ScenarioLimits.MaxCallCount));
            if (outer <= ScenarioLimits.MaxCallsPerRequest && _callsPerRequest > ScenarioLimits.MaxCallsPerRequest)
            {
                _checks.Error(path + ".count", $"makes one request fan out to more than {ScenarioLimits.MaxCallsPerRequest.ToString("N0", CultureInfo.InvariantCulture)} calls (the product of the nested counts)");
            }

            ValidateStages(path + ".stages", stage.Stages, stage.Call!, depth + 1);
            _callsPerRequest = outer;
        }
    }

    private static ResourceSpec? FindResource(ServiceSpec service, string name)
    {
        if (service.Resources is null)
        {
            return null;
        }

        foreach (var resource in service.Resources)
        {
            if (resource?.Name == name)
            {
                return resource;
            }
        }

        return null;
    }

    /// <summary>
    /// Rejects a cycle in the service graph (fe -> ps -> fe), naming its path: a request could then wait on itself
    /// through the thread pools, and rates bubble up a DAG. A service calling itself (a coordinator reading from its
    /// replicas in a ring) is not a cycle.
    /// </summary>
    public void ValidateCallGraph()
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
                _checks.Error(closing + ".call", $"the service graph has a cycle: {string.Join(" -> ", cycle)}; calls between services must form a DAG (a service may call itself)");
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
