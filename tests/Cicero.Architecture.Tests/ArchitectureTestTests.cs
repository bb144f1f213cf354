// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Architecture.Tests;

/// <summary>The test of the test: the rules report a cycle and an upward reference when there is one.</summary>
public sealed class ArchitectureTestTests
{
    private static readonly string Self = typeof(ArchitectureTestTests).Assembly.Location;

    [Fact]
    public void A_namespace_ring_in_an_assembly_is_reported_with_its_edges()
    {
        var graph = NamespaceDependencies.Read(Self, "Cicero.Architecture.Tests.Fixtures.Ring");

        var cycle = Assert.Single(graph.Cycles());
        Assert.Equal(["Cicero.Architecture.Tests.Fixtures.Ring.A", "Cicero.Architecture.Tests.Fixtures.Ring.B"], cycle);
        var description = graph.Describe(cycle);
        Assert.Contains("Ring.A.Caller uses Cicero.Architecture.Tests.Fixtures.Ring.B.Callee", description, StringComparison.Ordinal);
        Assert.Contains("Ring.B.Callee uses Cicero.Architecture.Tests.Fixtures.Ring.A.Caller", description, StringComparison.Ordinal);
    }

    [Fact]
    public void A_one_way_reference_through_a_method_body_is_an_edge_but_no_cycle()
    {
        var graph = NamespaceDependencies.Read(Self, "Cicero.Architecture.Tests.Fixtures.Chain");

        Assert.Equal(["Cicero.Architecture.Tests.Fixtures.Chain.B"], graph.Targets("Cicero.Architecture.Tests.Fixtures.Chain.A"));
        Assert.Empty(graph.Cycles());
    }

    [Fact]
    public void Cycles_are_found_in_generated_graphs_exactly_when_a_back_edge_exists()
    {
        var random = new Random(21);
        for (var trial = 0; trial < 200; trial++)
        {
            // A random DAG (edges only from lower to higher index), then maybe one edge back along a path.
            var size = random.Next(2, 12);
            var graph = new DependencyGraph();
            var path = new List<int> { 0 };
            for (var i = 0; i < size; i++)
            {
                graph.AddNode(Name(i));
                for (var j = i + 1; j < size; j++)
                {
                    if (random.NextDouble() < 0.3)
                    {
                        graph.AddEdge(Name(i), Name(j), "generated");
                    }
                }
            }

            for (var i = 1; i < size; i++)
            {
                graph.AddEdge(Name(i - 1), Name(i), "chain");
            }

            Assert.Empty(graph.Cycles());

            var from = random.Next(1, size);
            var to = random.Next(0, from);
            graph.AddEdge(Name(from), Name(to), "back");
            var cycle = Assert.Single(graph.Cycles());
            Assert.Equal(Enumerable.Range(to, from - to + 1).Select(Name), cycle);
        }

        static string Name(int i) => $"N{i:D2}";
    }

    [Fact]
    public void An_upward_or_sideways_project_reference_and_a_project_without_a_layer_are_reported()
    {
        var folder = Directory.CreateTempSubdirectory("cicero-arch-");
        try
        {
            Write(folder, "Core", "Core.csproj", []);
            Write(folder, "Policies", "Policies.csproj", ["../Core/Core.csproj"]);
            Write(folder, "Grpc", "Grpc.csproj", ["../Core/Core.csproj", "..\\Policies\\Policies.csproj"]);
            Write(folder, "Stray", "Stray.csproj", []);
            var layers = new Dictionary<string, int> { ["Core"] = 0, ["Policies"] = 1, ["Grpc"] = 2 };
            int? LayerOf(string name) => layers.TryGetValue(name, out var layer) ? layer : null;

            Assert.Equal(["Stray has no layer: add it to ProjectLayers.Source (and to docs/architecture.md)."], ProjectLayers.Violations(ProjectLayers.Read([folder.FullName]), LayerOf));

            // Core now reaches up to Grpc: one upward reference, named with the file that makes it.
            Write(folder, "Core", "Core.csproj", ["../Grpc/Grpc.csproj"]);
            layers["Stray"] = 1;
            var violation = Assert.Single(ProjectLayers.Violations(ProjectLayers.Read([folder.FullName]), LayerOf));
            Assert.Equal("Core (layer 0) -> Grpc (layer 2): Core.csproj references ../Grpc/Grpc.csproj", violation);

            // Sideways (same layer) is refused too.
            Write(folder, "Core", "Core.csproj", []);
            Write(folder, "Stray", "Stray.csproj", ["../Policies/Policies.csproj"]);
            Assert.StartsWith("Stray (layer 1) -> Policies (layer 1)", Assert.Single(ProjectLayers.Violations(ProjectLayers.Read([folder.FullName]), LayerOf)), StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void A_friend_that_is_not_a_test_project_is_reported()
    {
        string[] friends = ["Cicero.Core.Tests", "Cicero.Benchmarks", "Cicero.Grpc", "StorageTopology.Tests"];

        var violation = Assert.Single(FriendAssemblies.Violations("Cicero.Core", friends));
        Assert.StartsWith("Cicero.Core shows its internals to Cicero.Grpc", violation, StringComparison.Ordinal);
    }

    [Fact]
    public void Friends_are_read_from_the_built_assembly()
    {
        // This test project has no friends; Cicero.Core names its tests.
        Assert.Empty(FriendAssemblies.Read(Self));
        Assert.Contains("Cicero.Core.Tests", FriendAssemblies.Read(Path.Combine(AppContext.BaseDirectory, "Cicero.Core.dll")));
    }

    private static void Write(DirectoryInfo root, string folder, string file, string[] references)
    {
        var directory = Directory.CreateDirectory(Path.Combine(root.FullName, folder));
        var items = string.Concat(references.Select(r => $"<ProjectReference Include=\"{r}\" />"));
        File.WriteAllText(Path.Combine(directory.FullName, file), $"<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>{items}</ItemGroup></Project>");
    }
}
