// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Traces;

public sealed class TraceReplayPlannerTests
{
    private static string Example => Path.Combine(TraceTestFiles.RepositoryTraces, "example.csv");

    [Fact]
    public void Create_Example_OneWorkflowPerTenantAndOperationInFirstSeenOrder()
    {
        var plan = TraceReplayPlanner.Create(TraceReader.ReadFile(Example));

        Assert.Equal(["photos.get", "meta.get", "photos.put", "meta.set", "scan.list", "meta.delete"], plan.Workflows.Select(w => w.Name));
        Assert.Equal(13, plan.RequestCount);
        Assert.Equal(plan.RequestCount, plan.Workflows.Sum(w => w.Requests));
        Assert.Equal(1, plan.DurationSeconds); // the last arrival (10 ms) rounded down to whole seconds, plus one
    }

    [Fact]
    public void Evaluate_NoHints_CostsFromSizes()
    {
        var model = new TraceCostModel();

        var read = model.Evaluate(new TraceRequest(0, "t", "get", 100, 3_000_000, 2));
        var write = model.Evaluate(new TraceRequest(0, "t", "put", 1_500_000, 0));
        var local = model.Evaluate(new TraceRequest(0, "t", "get", 10, 20, 0));
        var hinted = model.Evaluate(new TraceRequest(0, "t", "get", 10, 20, 5, AuthMs: 0.1, PsMs: 0.2, BsMs: 0.3));

        Assert.Equal(new TraceStageCosts(2, 1, 0.5 + (3_000_100 / 1e6), 4 + (1_500_000 / 150_000.0), IsWrite: false), read);
        Assert.Equal(new TraceStageCosts(1, 1, 0.5 + 1.5, 4 + 10, IsWrite: true), write);
        Assert.Equal(new TraceStageCosts(0, 1, 0.5 + (30 / 1e6), 0, IsWrite: false), local);
        Assert.Equal(new TraceStageCosts(5, 0.1, 0.2, 0.3, IsWrite: false), hinted);
    }

    [Fact]
    public void Create_TimeScale_DividesArrivals()
    {
        TraceRequest[] trace = [new(0, "a", "get", 0, 0), new(1500, "b", "get", 0, 0), new(4200, "a", "get", 0, 0)];

        var plan = TraceReplayPlanner.Create(trace, new TraceReplayOptions { TimeScale = 2 });

        Assert.Equal([0, 0.75, 2.1], plan.Requests.Select(r => r.ArrivalSeconds));
        Assert.Equal([0L, 1, 2], plan.Requests.Select(r => r.Sequence));
        Assert.Equal([0, 1, 0], plan.Requests.Select(r => r.Workflow));
        Assert.Equal(3, plan.DurationSeconds);
        Assert.Equal(3, plan.Scenario.DurationSeconds);
        var arrivals = plan.CollectArrivalSeconds();
        Assert.Equal([0, 2.1], arrivals["a.get"]);
        Assert.Equal([0.75], arrivals["b.get"]);
    }

    [Fact]
    public void Create_Example_SpecsFollowTheDefaultTopology()
    {
        var plan = TraceReplayPlanner.Create(TraceReader.ReadFile(Example));
        var photosGet = plan.Workflows.Single(w => w.Name == "photos.get");
        var photosPut = plan.Workflows.Single(w => w.Name == "photos.put");
        var metaGet = plan.Workflows.Single(w => w.Name == "meta.get");

        // photos.get: fan-outs 4, 3, default 1, 1: mean 2.25, so two parallel reads of the selected copy.
        Assert.Equal(2.25, photosGet.MeanFanOut);
        Assert.Equal(4, photosGet.MaxFanOut);
        var ps = photosGet.Spec.Stages![1];
        Assert.Equal(DefaultTopology.PartitionService, ps.Call);
        Assert.Equal(DefaultTopology.BlockService, ps.Stages![0].Call);
        Assert.Equal(2, ps.Stages[0].Count);
        Assert.Equal(ReplicaTargets.Selected, ps.Stages[0].Replicas);
        Assert.Equal(DistributionKinds.LogNormal, ps.Stages[0].Stages![0].ServiceTime!.Distribution);
        Assert.Equal(ReplicaTargets.Primary, photosPut.Spec.Stages![1].Stages![0].Replicas);
        Assert.True(photosPut.IsWrite);
        Assert.Single(metaGet.Spec.Stages![1].Stages!); // served at the PS: compute only
        Assert.Equal(DistributionKinds.LogNormal, metaGet.Spec.Stages![0].Stages![0].ServiceTime!.Distribution); // auth 1, 1, 0.5
        Assert.Equal(DistributionKinds.Constant, photosGet.Spec.Stages![0].Stages![0].ServiceTime!.Distribution); // auth 1 each
    }

    [Fact]
    public void Scenario_WithWorkloadsAndAConfiguration_ValidatesAndRuns()
    {
        var plan = TraceReplayPlanner.Create(TraceReader.ReadFile(Example));
        var scenario = plan.Scenario;
        scenario.DurationSeconds = 2;
        foreach (var workflow in plan.Workflows)
        {
            scenario.Workloads!.Add(new WorkloadSpec { Workflow = workflow.Name, RatePerSecond = 20 });
        }

        scenario.Configurations!.Add(new ConfigurationSpec { Name = "rc" });

        Assert.Equal(string.Empty, string.Join("; ", ScenarioLoader.Validate(scenario)));
        var result = new TopologySimulation(scenario, scenario.Configurations[0]).Run();
        Assert.All(plan.Workflows, w => Assert.True(result[w.Name].Completed > 0, w.Name));
    }

    [Fact]
    public void Create_MetaBlockSample_RequestsMatchTheImport()
    {
        var importer = new MetaBlockTraceImporter();
        var trace = TraceImport.ReadFile(importer, TraceTestFiles.MetaBlock);
        var imported = trace.ToList();

        var plan = TraceReplayPlanner.Create(trace);

        Assert.Equal(imported.Count, plan.RequestCount);
        Assert.Equal(imported.Select(r => (r.Tenant, r.Operation)).Distinct().Count(), plan.Workflows.Count);
        var requests = plan.Requests.ToList();
        Assert.Equal(imported.Select(r => r.FanOut!.Value), requests.Select(r => r.Costs.FanOut));
        Assert.Equal(imported.Select(r => $"{r.Tenant}.{r.Operation}"), requests.Select(r => plan.Workflows[r.Workflow].Name));
        Assert.Equal(requests, plan.Requests.ToList());
        Assert.All(plan.Workflows.Where(w => w.Operation == "get"), w => Assert.False(w.IsWrite));
        Assert.Equal(imported.Sum(r => r.ResponseBytes), plan.Workflows.Sum(w => w.ResponseBytes));
    }

    [Fact]
    public void Requests_SourceChangedAfterPlanning_Throws()
    {
        var trace = new List<TraceRequest> { new(0, "a", "get", 0, 0) };
        var plan = TraceReplayPlanner.Create(trace);
        trace.Add(new TraceRequest(1, "b", "get", 0, 0));

        Assert.Throws<InvalidOperationException>(() => plan.Requests.ToList());
    }

    [Fact]
    public void Create_TooManyWorkflows_Throws()
    {
        var trace = Enumerable.Range(0, 5).Select(i => new TraceRequest(i, $"t{i}", "get", 0, 0));

        Assert.Throws<ArgumentException>(() => TraceReplayPlanner.Create(trace, new TraceReplayOptions { MaxWorkflows = 4 }));
    }
}
