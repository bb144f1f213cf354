// SPDX-License-Identifier: Apache-2.0

using Cicero.StorageTopology;
using Spectre.Console;

// No arguments: the embedded performance-isolation scenario, simulated, report in ./results/.
return StorageTopologyCommand.Create(AnsiConsole.Console).Parse(args).Invoke();
