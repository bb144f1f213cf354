// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Checks a parsed scenario field by field and collects every problem with its JSON path, rather than stopping at the
/// first, so one edit-run cycle fixes them all.
/// </summary>
internal sealed class ScenarioValidator
{
    // Deep DAGs are almost certainly a mistake and would make the runner's recursion unbounded.
    private const int MaxStageDepth = 16;
    private readonly List<ScenarioError> _errors = [];
    private readonly PolicyCatalog _catalog;
    private readonly Dictionary<string, ServiceSpec> _services = new(StringComparer.Ordinal);
    private readonly Dictionary<(string From, string To), RouteSpec> _routes = [];
    private readonly HashSet<string> _workflows = new(StringComparer.Ordinal);

    public ScenarioValidator(PolicyCatalog catalog)
    {
        _catalog = catalog;
    }

    public IReadOnlyList<ScenarioError> Validate(ScenarioSpec scenario)
    {
        if (string.IsNullOrWhiteSpace(scenario.Name))
        {
            Error("name", "is required");
        }

        Positive("durationSeconds", scenario.DurationSeconds);
        if (!(scenario.WarmUpSeconds >= 0) || !double.IsFinite(scenario.WarmUpSeconds))
        {
            Error("warmUpSeconds", $"must be >= 0, was {F(scenario.WarmUpSeconds)}");
        }
        else if (scenario.WarmUpSeconds >= scenario.DurationSeconds)
        {
            Error("warmUpSeconds", $"must be less than durationSeconds ({F(scenario.DurationSeconds)}), was {F(scenario.WarmUpSeconds)}");
        }

        if (scenario.Network is { } network)
        {
            if (!(network.OneWayDelayMs >= 0) || !double.IsFinite(network.OneWayDelayMs))
            {
                Error("network.oneWayDelayMs", $"must be >= 0, was {F(network.OneWayDelayMs)}");
            }

            Positive("network.rpcTimeoutMs", network.RpcTimeoutMs);
        }

        ValidateServices(scenario.Services);
        if (!_services.ContainsKey(scenario.EntryService ?? string.Empty) && _services.Count > 0)
        {
            Error("entryService", $"unknown service '{scenario.EntryService}'; known: {Known(_services.Keys)}");
        }

        ValidateRoutes(scenario.Routes);
        ValidateWorkflows(scenario);
        ValidateWorkloads(scenario);
        ValidateConfigurations(scenario.Configurations);
        return _errors;
    }

    private void ValidateServices(IList<ServiceSpec>? services)
    {
        if (services is null || services.Count == 0)
        {
            Error("services", "must list at least one service");
            return;
        }

        for (var i = 0; i < services.Count; i++)
        {
            var path = $"services[{i}]";
            var service = services[i];
            if (service is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (Name(path + ".name", service.Name) && !_services.TryAdd(service.Name!, service))
            {
                Error(path + ".name", $"duplicate service name '{service.Name}'");
            }

            AtLeast(path + ".instances", service.Instances, 1);
            ValidateResources(path, service);
        }
    }

    private void ValidateResources(string servicePath, ServiceSpec service)
    {
        if (service.Resources is null)
        {
            return;
        }

        var names = new HashSet<string>(StringComparer.Ordinal);
        var pools = new HashSet<string>(StringComparer.Ordinal);
        for (var r = 0; r < service.Resources.Count; r++)
        {
            var path = $"{servicePath}.resources[{r}]";
            var resource = service.Resources[r];
            if (resource is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (Name(path + ".name", resource.Name) && !names.Add(resource.Name!))
            {
                Error(path + ".name", $"duplicate resource name '{resource.Name}' in service '{service.Name}'");
            }

            if (OneOf(path + ".kind", resource.Kind, ResourceKinds.All)
                && resource.Kind is ResourceKinds.ThreadPool or ResourceKinds.ConnectionPool
                && !pools.Add(resource.Kind))
            {
                Error(path + ".kind", $"a service has at most one {resource.Kind}");
            }

            AtLeast(path + ".capacity", resource.Capacity, 1);
            AtLeast(path + ".maxQueueLength", resource.MaxQueueLength, 0);
        }
    }

    private void ValidateRoutes(IList<RouteSpec>? routes)
    {
        if (routes is null)
        {
            return;
        }

        for (var i = 0; i < routes.Count; i++)
        {
            var path = $"routes[{i}]";
            var route = routes[i];
            if (route is null)
            {
                Error(path, "must not be null");
                continue;
            }

            var fromKnown = KnownService(path + ".from", route.From);
            var toKnown = KnownService(path + ".to", route.To);
            if (fromKnown && toKnown && !_routes.TryAdd((route.From!, route.To!), route))
            {
                Error(path, $"duplicate route from '{route.From}' to '{route.To}'");
            }

            if (!OneOf(path + ".strategy", route.Strategy, RoutingStrategies.All))
            {
                continue;
            }

            if (route.Strategy == RoutingStrategies.ConsistentHash)
            {
                AtLeast(path + ".virtualNodes", route.VirtualNodes, 1);
            }

            if (route.Strategy == RoutingStrategies.Blocks)
            {
                AtLeast(path + ".blocksPerPartition", route.BlocksPerPartition, 1);
                if (AtLeast(path + ".replication", route.Replication, 1) && toKnown && route.Replication > _services[route.To!].Instances)
                {
                    Error(path + ".replication", $"must be <= the {_services[route.To!].Instances} instances of '{route.To}', was {route.Replication}");
                }

                if (string.Equals(route.ReplicaSelector, ReplicaSelectorNames.Oracle, StringComparison.OrdinalIgnoreCase))
                {
                    Error(path + ".replicaSelector", "'oracle' needs the true server state, which the topology runner does not feed it");
                }
                else
                {
                    OneOf(path + ".replicaSelector", route.ReplicaSelector, _catalog.ReplicaSelectorNames, ignoreCase: true);
                }
            }
        }
    }

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
            if (workflow.DeadlineMs is { } deadline)
            {
                Positive(path + ".deadlineMs", deadline);
            }

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
        if (!KnownService(path + ".call", stage.Call))
        {
            return;
        }

        var route = _routes.TryGetValue((service, stage.Call!), out var found) ? found : null;
        if (OneOf(path + ".replicas", stage.Replicas, ReplicaTargets.Values)
            && stage.Replicas != ReplicaTargets.Selected
            && route?.Strategy != RoutingStrategies.Blocks)
        {
            Error(path + ".replicas", $"'{stage.Replicas}' needs a blocks route from '{service}' to '{stage.Call}'");
        }

        if (stage.Stages is not null)
        {
            ValidateStages(path + ".stages", stage.Stages, stage.Call!, depth + 1);
        }
    }

    private void ValidateWorkloads(ScenarioSpec scenario)
    {
        var workloads = scenario.Workloads;
        if (workloads is null || workloads.Count == 0)
        {
            Error("workloads", "must list at least one workload");
            return;
        }

        for (var i = 0; i < workloads.Count; i++)
        {
            var path = $"workloads[{i}]";
            var workload = workloads[i];
            if (workload is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (string.IsNullOrEmpty(workload.Workflow))
            {
                Error(path + ".workflow", "is required");
            }
            else if (!_workflows.Contains(workload.Workflow))
            {
                Error(path + ".workflow", $"unknown workflow '{workload.Workflow}'; known: {Known(_workflows)}");
            }

            var kindKnown = OneOf(path + ".kind", workload.Kind, WorkloadKinds.All);
            var closed = workload.Kind == WorkloadKinds.ClosedLoop;
            NonNegative(path + ".ratePerSecond", workload.RatePerSecond);
            AtLeast(path + ".clients", workload.Clients, 0);
            NonNegative(path + ".startSeconds", workload.StartSeconds);
            if (workload.StopSeconds is { } stop && !(stop > workload.StartSeconds))
            {
                Error(path + ".stopSeconds", $"must be greater than startSeconds ({F(workload.StartSeconds)}), was {F(stop)}");
            }

            if (workload.ThinkTime is not null)
            {
                Distribution(path + ".thinkTime", workload.ThinkTime);
            }

            if (workload.Kind == WorkloadKinds.OnOff)
            {
                Positive(path + ".onSeconds", workload.OnSeconds);
                Positive(path + ".offSeconds", workload.OffSeconds);
            }

            var offersLoad = closed ? workload.Clients > 0 : workload.RatePerSecond > 0;
            var previous = double.NegativeInfinity;
            for (var s = 0; workload.Steps is not null && s < workload.Steps.Count; s++)
            {
                var stepPath = $"{path}.steps[{s}]";
                var step = workload.Steps[s];
                if (step is null)
                {
                    Error(stepPath, "must not be null");
                    continue;
                }

                if (NonNegative(stepPath + ".atSeconds", step.AtSeconds) && step.AtSeconds < previous)
                {
                    Error(stepPath + ".atSeconds", $"steps must be in time order; {F(step.AtSeconds)} comes after {F(previous)}");
                }

                previous = Math.Max(previous, step.AtSeconds);
                if (kindKnown && closed)
                {
                    if (step.Clients is not { } clients)
                    {
                        Error(stepPath + ".clients", "is required for a closed-loop workload");
                    }
                    else
                    {
                        AtLeast(stepPath + ".clients", clients, 0);
                        offersLoad |= clients > 0;
                    }

                    if (step.RatePerSecond is not null)
                    {
                        Error(stepPath + ".ratePerSecond", "applies only to open-loop workloads; use clients");
                    }
                }
                else if (kindKnown)
                {
                    if (step.RatePerSecond is not { } rate)
                    {
                        Error(stepPath + ".ratePerSecond", $"is required for a {workload.Kind} workload");
                    }
                    else
                    {
                        NonNegative(stepPath + ".ratePerSecond", rate);
                        offersLoad |= rate > 0;
                    }

                    if (step.Clients is not null)
                    {
                        Error(stepPath + ".clients", "applies only to closed-loop workloads; use ratePerSecond");
                    }
                }
            }

            if (kindKnown && !offersLoad)
            {
                Error(path, closed ? "offers no load: clients is 0 and no step adds any" : "offers no load: ratePerSecond is 0 and no step raises it");
            }
        }
    }

    /// <summary>Validates a configuration on its own (one passed to a run rather than listed in the scenario).</summary>
    public IReadOnlyList<ScenarioError> ValidateConfiguration(ConfigurationSpec configuration, string path)
    {
        ValidateConfiguration(path, configuration);
        return _errors;
    }

    private void ValidateConfigurations(IList<ConfigurationSpec>? configurations)
    {
        if (configurations is null || configurations.Count == 0)
        {
            Error("configurations", "must list at least one configuration");
            return;
        }

        var names = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < configurations.Count; i++)
        {
            var path = $"configurations[{i}]";
            var configuration = configurations[i];
            if (configuration is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (configuration.Name is not null && !names.Add(configuration.Name))
            {
                Error(path + ".name", $"duplicate configuration name '{configuration.Name}'");
            }

            ValidateConfiguration(path, configuration);
        }
    }

    private void ValidateConfiguration(string path, ConfigurationSpec configuration)
    {
        Name(path + ".name", configuration.Name);
        OneOf(path + ".scheduler", configuration.Scheduler, _catalog.SchedulerNames, ignoreCase: true);
        OneOf(path + ".rateLimitPolicy", configuration.RateLimitPolicy, _catalog.RateLimitPolicyNames, ignoreCase: true);
        OneOf(path + ".dropPolicy", configuration.DropPolicy, _catalog.DropPolicyNames, ignoreCase: true);
        if (!(configuration.Quantile >= 0 && configuration.Quantile <= 1))
        {
            Error(path + ".quantile", $"must be in [0, 1], was {F(configuration.Quantile)}");
        }

        Positive(path + ".controlIntervalMs", configuration.ControlIntervalMs);
        if (configuration.DeadlineMs is { } deadline)
        {
            Positive(path + ".deadlineMs", deadline);
        }

        AtLeast(path + ".admissionQueueLimit", configuration.AdmissionQueueLimit, 0);
    }

    private void Distribution(string path, DistributionSpec distribution)
    {
        if (!OneOf(path + ".distribution", distribution.Distribution, DistributionKinds.All))
        {
            return;
        }

        if (distribution.Distribution == DistributionKinds.Constant)
        {
            NonNegative(path + ".meanMs", distribution.MeanMs);
        }
        else
        {
            Positive(path + ".meanMs", distribution.MeanMs);
        }

        if (distribution.Distribution == DistributionKinds.LogNormal)
        {
            Positive(path + ".cv", distribution.Cv);
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

    private bool KnownService(string path, string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            Error(path, "is required");
            return false;
        }

        if (_services.ContainsKey(name))
        {
            return true;
        }

        if (_services.Count > 0)
        {
            Error(path, $"unknown service '{name}'; known: {Known(_services.Keys)}");
        }

        return false;
    }

    private bool Name(string path, string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            Error(path, "is required");
            return false;
        }

        foreach (var c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '+'))
            {
                Error(path, $"may contain only letters, digits, '-', '_', '.' and '+', was '{name}'");
                return false;
            }
        }

        return true;
    }

    private bool OneOf(string path, string? value, IReadOnlyList<string> allowed, bool ignoreCase = false)
    {
        var comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        foreach (var candidate in allowed)
        {
            if (string.Equals(candidate, value, comparison))
            {
                return true;
            }
        }

        Error(path, value is null ? $"is required; one of: {string.Join(", ", allowed)}" : $"must be one of: {string.Join(", ", allowed)}; was '{value}'");
        return false;
    }

    private bool AtLeast(string path, int value, int minimum)
    {
        if (value >= minimum)
        {
            return true;
        }

        Error(path, $"must be >= {minimum}, was {value}");
        return false;
    }

    private bool Positive(string path, double value)
    {
        if (value > 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be > 0, was {F(value)}");
        return false;
    }

    private bool NonNegative(string path, double value)
    {
        if (value >= 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be >= 0, was {F(value)}");
        return false;
    }

    private void Error(string path, string message) => _errors.Add(new ScenarioError(path, message));

    private static string Known(IEnumerable<string> names) => string.Join(", ", names);

    private static string F(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
