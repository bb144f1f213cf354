// SPDX-License-Identifier: Apache-2.0

using Cicero.StorageTopology;
using Spectre.Console;

// No arguments: the embedded performance-isolation scenario, simulated, report in ./results/.
var errors = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) });
return StorageTopologyCommand.Create(AnsiConsole.Console, errors).Parse(args).Invoke();
