// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios;

/// <summary>Workflows and their stages, each checked at the service that runs it.</summary>
internal sealed partial class ScenarioValidator
{
    private void ValidateWorkflows(ScenarioSpec scenario)
    {
        var workflows = scenario.Workflows;
        if (workflows is null || workflows.Count == 0)
        {
            Error("workflows", "must list at least one workflow");
            return;
        }

        for (var i = 0; i < workflows.Count; i++)
        {
            var path = $"workflows[{i}]";
            var workflow = workflows[i];
            if (workflow is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (Name(path + ".name", workflow.Name) && !_workflows.Add(workflow.Name!))
            {
                Error(path + ".name", $"duplicate workflow name '{workflow.Name}'");
            }

            AtLeast(path + ".partitions", workflow.Partitions, 1);
            AtMost(path + ".partitions", workflow.Partitions, ScenarioLimits.MaxPlacement, "partitions");
            if (workflow.DeadlineMs is { } deadline)
            {
                Positive(path + ".deadlineMs", deadline);
            }

            if (workflow.LatencySloMs is { } slo && Positive(path + ".latencySloMs", slo))
            {
                _workflowsWithSlo++;
            }

            ValidateTable(path, workflow);

            var entry = workflow.Entry ?? scenario.EntryService;
            if (workflow.Entry is not null && !KnownService(path + ".entry", workflow.Entry))
            {
                continue;
            }

            if (workflow.Stages is null)
            {
                Error(path + ".stages", "is required");
            }
            else if (_services.ContainsKey(entry ?? string.Empty))
            {
                ValidateStages(path + ".stages", workflow.Stages, entry!, 1);
            }
        }
    }

    private void ValidateTable(string path, WorkflowSpec workflow)
    {
        if (workflow.Table is not null && !Name(path + ".table", workflow.Table))
        {
            return;
        }

        // Placement is per (table, partition), so a shared table must be cut into the same partitions by all its users.
        var table = workflow.Table ?? workflow.Name;
        if (table is null)
        {
            return;
        }

        if (!_tables.TryGetValue(table, out var first))
        {
            _tables[table] = (workflow.Name ?? string.Empty, workflow.Partitions);
        }
        else if (first.Partitions != workflow.Partitions)
        {
            Error(path + ".partitions", $"workflows sharing table '{table}' must have the same partitions; '{first.Workflow}' has {first.Partitions}, this one {workflow.Partitions}");
        }
    }

    private void ValidateStages(string path, IList<StageSpec> stages, string service, int depth)
    {
        if (depth > MaxStageDepth)
        {
            Error(path, $"stages nest deeper than {MaxStageDepth} levels");
            return;
        }

        for (var s = 0; s < stages.Count; s++)
        {
            var stagePath = $"{path}[{s}]";
            var stage = stages[s];
            if (stage is null)
            {
                Error(stagePath, "must not be null");
                continue;
            }

            var shapes = (stage.Use is null ? 0 : 1) + (stage.Call is null ? 0 : 1) + (stage.Parallel is null ? 0 : 1);
            if (shapes != 1)
            {
                Error(stagePath, $"must set exactly one of use, call or parallel, set {shapes}");
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
                    Error(stagePath + ".parallel", "must list at least one branch");
                }

                for (var b = 0; b < stage.Parallel.Count; b++)
                {
                    if (stage.Parallel[b] is null)
                    {
                        Error($"{stagePath}.parallel[{b}]", "must not be null");
                        continue;
                    }

                    ValidateStages($"{stagePath}.parallel[{b}]", stage.Parallel[b], service, depth + 1);
                }
            }
        }
    }

    private void ValidateUse(string path, StageSpec stage, string service)
    {
        var resource = FindResource(_services[service], stage.Use!);
        if (resource is null)
        {
            var names = _services[service].Resources?.Where(r => r?.Name is not null).Select(r => r.Name!) ?? [];
            Error(path + ".use", $"service '{service}' has no resource '{stage.Use}'; it has: {Known(names)}");
        }
        else if (resource.Kind is ResourceKinds.ThreadPool or ResourceKinds.ConnectionPool)
        {
            Error(path + ".use", $"'{stage.Use}' is a {resource.Kind}, held implicitly; stages may use only disk or compute resources");
        }

        if (stage.ServiceTime is null)
        {
            Error(path + ".serviceTime", "is required for a use stage");
        }
        else
        {
            Distribution(path + ".serviceTime", stage.ServiceTime);
        }

        if (stage.Stages is not null)
        {
            Error(path + ".stages", "applies only to call stages");
        }
    }

    private void ValidateCall(string path, StageSpec stage, string service, int depth)
    {
        if (stage.ServiceTime is not null)
        {
            Error(path + ".serviceTime", "applies only to use stages");
        }

        AtLeast(path + ".count", stage.Count, 1);
        AtMost(path + ".count", stage.Count, ScenarioLimits.MaxCallCount, "calls");
        if (!KnownService(path + ".call", stage.Call))
        {
            return;
        }

        _calls.TryAdd((service, stage.Call!), path);

        var route = _routes.TryGetValue((service, stage.Call!), out var found) ? found : null;
        if (OneOf(path + ".replicas", stage.Replicas, ReplicaTargets.Values)
            && stage.Replicas != ReplicaTargets.Selected
            && route?.Strategy != RoutingStrategies.Blocks)
        {
            Error(path + ".replicas", $"'{stage.Replicas}' needs a blocks route from '{service}' to '{stage.Call}'");
        }

        if (stage.Stages is not null)
        {
            var outer = _callsPerRequest;
            _callsPerRequest *= Math.Max(1, Math.Min(stage.Count, ScenarioLimits.MaxCallCount));
            if (outer <= ScenarioLimits.MaxCallsPerRequest && _callsPerRequest > ScenarioLimits.MaxCallsPerRequest)
            {
                Error(path + ".count", $"makes one request fan out to more than {ScenarioLimits.MaxCallsPerRequest.ToString("N0", CultureInfo.InvariantCulture)} calls (the product of the nested counts)");
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
}
