// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Checks a parsed scenario field by field and collects every problem with its JSON path, rather than stopping at the
/// first, so one edit-run cycle fixes them all.
/// </summary>
internal sealed partial class ScenarioValidator
{
    // Deep DAGs are almost certainly a mistake and would make the runner's recursion unbounded.
    private const int MaxStageDepth = 16;
    private readonly List<ScenarioError> _errors = [];
    private readonly PolicyCatalog _catalog;
    private readonly Dictionary<string, ServiceSpec> _services = new(StringComparer.Ordinal);
    private readonly Dictionary<(string From, string To), RouteSpec> _routes = [];
    private readonly HashSet<string> _workflows = new(StringComparer.Ordinal);
    private readonly Dictionary<string, (string Workflow, int Partitions)> _tables = new(StringComparer.Ordinal);
    private int _workflowsWithSlo;

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

        if (Positive("durationSeconds", scenario.DurationSeconds))
        {
            AtMost("durationSeconds", scenario.DurationSeconds, ScenarioLimits.MaxDurationSeconds, "seconds (a week)");
        }

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
        ValidateCallGraph();
        ValidateWorkloads(scenario);
        ValidateConfigurations(scenario.Configurations);
        ValidateFaults(scenario);
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

            if (AtLeast(path + ".instances", service.Instances, 1))
            {
                AtMost(path + ".instances", service.Instances, ScenarioLimits.MaxInstances, "instances");
            }

            ValidateResources(path, service);
            if (service.Background is { } background)
            {
                Positive(path + ".background.intervalMs", background.IntervalMs);
                if (!(background.Probability >= 0 && background.Probability <= 1))
                {
                    Error(path + ".background.probability", $"must be in [0, 1], was {F(background.Probability)}");
                }

                Positive(path + ".background.factor", background.Factor);
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
            AtMost(path + ".capacity", resource.Capacity, ScenarioLimits.MaxCapacity, "permits");
            AtLeast(path + ".maxQueueLength", resource.MaxQueueLength, 0);
            AtMost(path + ".maxQueueLength", resource.MaxQueueLength, ScenarioLimits.MaxQueueLength, "waiting sub-tasks");
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
                AtMost(path + ".virtualNodes", route.VirtualNodes, ScenarioLimits.MaxPlacement, "ring points per instance");
            }

            if (route.Strategy == RoutingStrategies.Blocks)
            {
                AtLeast(path + ".blocksPerPartition", route.BlocksPerPartition, 1);
                AtMost(path + ".blocksPerPartition", route.BlocksPerPartition, ScenarioLimits.MaxPlacement, "blocks");
                if (AtLeast(path + ".replication", route.Replication, 1) && toKnown && route.Replication > _services[route.To!].Instances)
                {
                    Error(path + ".replication", $"must be <= the {_services[route.To!].Instances} instances of '{route.To}', was {route.Replication}");
                }

                ReplicaSelector(path + ".replicaSelector", route.ReplicaSelector);
            }
        }
    }

    private void ReplicaSelector(string path, string? name)
    {
        if (string.Equals(name, ReplicaSelectorNames.Oracle, StringComparison.OrdinalIgnoreCase))
        {
            Error(path, "'oracle' needs the true server state, which the topology runner does not feed it");
        }
        else
        {
            OneOf(path, name, _catalog.ReplicaSelectorNames, ignoreCase: true);
        }
    }
}
