// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Checks a parsed scenario field by field and collects every problem with its JSON path, rather than stopping at the
/// first, so one edit-run cycle fixes them all.
/// </summary>
internal sealed class ScenarioValidator
{
    private readonly ScenarioChecks _checks;

    public ScenarioValidator(PolicyCatalog catalog) => _checks = new ScenarioChecks(catalog);

    public IReadOnlyList<ScenarioError> Validate(ScenarioSpec scenario)
    {
        if (string.IsNullOrWhiteSpace(scenario.Name))
        {
            _checks.Error("name", "is required");
        }

        if (_checks.Positive("durationSeconds", scenario.DurationSeconds))
        {
            _checks.AtMost("durationSeconds", scenario.DurationSeconds, ScenarioLimits.MaxDurationSeconds, "seconds (a week)");
        }

        if (!(scenario.WarmUpSeconds >= 0) || !double.IsFinite(scenario.WarmUpSeconds))
        {
            _checks.Error("warmUpSeconds", $"must be >= 0, was {ScenarioChecks.F(scenario.WarmUpSeconds)}");
        }
        else if (scenario.WarmUpSeconds >= scenario.DurationSeconds)
        {
            _checks.Error("warmUpSeconds", $"must be less than durationSeconds ({ScenarioChecks.F(scenario.DurationSeconds)}), was {ScenarioChecks.F(scenario.WarmUpSeconds)}");
        }

        if (scenario.Network is { } network)
        {
            if (!(network.OneWayDelayMs >= 0) || !double.IsFinite(network.OneWayDelayMs))
            {
                _checks.Error("network.oneWayDelayMs", $"must be >= 0, was {ScenarioChecks.F(network.OneWayDelayMs)}");
            }

            _checks.Positive("network.rpcTimeoutMs", network.RpcTimeoutMs);
        }

        ValidateServices(scenario.Services);
        if (!_checks.Services.ContainsKey(scenario.EntryService ?? string.Empty) && _checks.Services.Count > 0)
        {
            _checks.Error("entryService", $"unknown service '{scenario.EntryService}'; known: {ScenarioChecks.Known(_checks.Services.Keys)}");
        }

        ValidateRoutes(scenario.Routes);
        var workflows = new WorkflowValidator(_checks);
        workflows.Validate(scenario);
        workflows.ValidateCallGraph();
        new WorkloadValidator(_checks).Validate(scenario);
        new ConfigurationValidator(_checks).ValidateAll(scenario.Configurations);
        ValidateFaults(scenario);
        return _checks.Errors;
    }

    /// <summary>Validates a configuration on its own (one passed to a run rather than listed in the scenario).</summary>
    public IReadOnlyList<ScenarioError> ValidateConfiguration(ConfigurationSpec configuration, string path, ScenarioSpec scenario) =>
        new ConfigurationValidator(_checks).ValidateAlone(configuration, path, scenario);

    private void ValidateServices(IList<ServiceSpec>? services)
    {
        if (services is null || services.Count == 0)
        {
            _checks.Error("services", "must list at least one service");
            return;
        }

        for (var i = 0; i < services.Count; i++)
        {
            var path = $"services[{i}]";
            var service = services[i];
            if (service is null)
            {
                _checks.Error(path, "must not be null");
                continue;
            }

            if (_checks.Name(path + ".name", service.Name) && !_checks.Services.TryAdd(service.Name!, service))
            {
                _checks.Error(path + ".name", $"duplicate service name '{service.Name}'");
            }

            if (_checks.AtLeast(path + ".instances", service.Instances, 1))
            {
                _checks.AtMost(path + ".instances", service.Instances, ScenarioLimits.MaxInstances, "instances");
            }

            ValidateResources(path, service);
            if (service.Background is { } background)
            {
                _checks.Positive(path + ".background.intervalMs", background.IntervalMs);
                if (!(background.Probability >= 0 && background.Probability <= 1))
                {
                    _checks.Error(path + ".background.probability", $"must be in [0, 1], was {ScenarioChecks.F(background.Probability)}");
                }

                _checks.Positive(path + ".background.factor", background.Factor);
            }
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
                _checks.Error(path, "must not be null");
                continue;
            }

            if (_checks.Name(path + ".name", resource.Name) && !names.Add(resource.Name!))
            {
                _checks.Error(path + ".name", $"duplicate resource name '{resource.Name}' in service '{service.Name}'");
            }

            if (_checks.OneOf(path + ".kind", resource.Kind, ResourceKinds.All)
                && resource.Kind is ResourceKinds.ThreadPool or ResourceKinds.ConnectionPool
                && !pools.Add(resource.Kind))
            {
                _checks.Error(path + ".kind", $"a service has at most one {resource.Kind}");
            }

            _checks.AtLeast(path + ".capacity", resource.Capacity, 1);
            _checks.AtMost(path + ".capacity", resource.Capacity, ScenarioLimits.MaxCapacity, "permits");
            _checks.AtLeast(path + ".maxQueueLength", resource.MaxQueueLength, 0);
            _checks.AtMost(path + ".maxQueueLength", resource.MaxQueueLength, ScenarioLimits.MaxQueueLength, "waiting sub-tasks");
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
                _checks.Error(path, "must not be null");
                continue;
            }

            var fromKnown = _checks.KnownService(path + ".from", route.From);
            var toKnown = _checks.KnownService(path + ".to", route.To);
            if (fromKnown && toKnown && !_checks.Routes.TryAdd((route.From!, route.To!), route))
            {
                _checks.Error(path, $"duplicate route from '{route.From}' to '{route.To}'");
            }

            if (!_checks.OneOf(path + ".strategy", route.Strategy, RoutingStrategies.All))
            {
                continue;
            }

            if (route.Strategy == RoutingStrategies.ConsistentHash)
            {
                _checks.AtLeast(path + ".virtualNodes", route.VirtualNodes, 1);
                _checks.AtMost(path + ".virtualNodes", route.VirtualNodes, ScenarioLimits.MaxPlacement, "ring points per instance");
            }

            if (route.Strategy == RoutingStrategies.Blocks)
            {
                _checks.AtLeast(path + ".blocksPerPartition", route.BlocksPerPartition, 1);
                _checks.AtMost(path + ".blocksPerPartition", route.BlocksPerPartition, ScenarioLimits.MaxPlacement, "blocks");
                if (_checks.AtLeast(path + ".replication", route.Replication, 1) && toKnown && route.Replication > _checks.Services[route.To!].Instances)
                {
                    _checks.Error(path + ".replication", $"must be <= the {_checks.Services[route.To!].Instances} instances of '{route.To}', was {route.Replication}");
                }

                _checks.ReplicaSelector(path + ".replicaSelector", route.ReplicaSelector);
            }
        }
    }

    /// <summary>Injected faults.</summary>
    private void ValidateFaults(ScenarioSpec scenario)
    {
        for (var i = 0; scenario.Faults is not null && i < scenario.Faults.Count; i++)
        {
            var path = $"faults[{i}]";
            var fault = scenario.Faults[i];
            if (fault is null)
            {
                _checks.Error(path, "must not be null");
                continue;
            }

            _checks.OneOf(path + ".kind", fault.Kind, FaultKinds.All);
            if (_checks.KnownService(path + ".service", fault.Service))
            {
                var service = _checks.Services[fault.Service!];
                if (fault.Service == scenario.EntryService)
                {
                    _checks.Error(path + ".service", $"'{fault.Service}' is the entry service; faults go to services that other services call");
                }
                else if (fault.Instance < 0 || fault.Instance >= service.Instances)
                {
                    _checks.Error(path + ".instance", $"must be in 0-{service.Instances - 1} ({fault.Service} has {service.Instances} instances), was {fault.Instance}");
                }
            }

            if (_checks.NonNegative(path + ".atSeconds", fault.AtSeconds) && !(fault.UntilSeconds > fault.AtSeconds))
            {
                _checks.Error(path + ".untilSeconds", $"must be greater than atSeconds ({ScenarioChecks.F(fault.AtSeconds)}), was {ScenarioChecks.F(fault.UntilSeconds)}");
            }

            if (fault.Kind == FaultKinds.Slow && !(fault.Factor > 0 && double.IsFinite(fault.Factor)))
            {
                _checks.Error(path + ".factor", $"must be > 0, was {ScenarioChecks.F(fault.Factor)}");
            }
        }
    }
}
