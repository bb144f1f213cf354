// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>Child processes that time themselves run one at a time, not beside each other.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class CliRuns
{
    public const string Name = "Command-line runs";
}
