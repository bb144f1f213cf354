// SPDX-License-Identifier: Apache-2.0

using Cicero.StorageTopology;

// No arguments: the embedded performance-isolation scenario, simulated, report in ./results/.
var console = ConsoleFactory.Create(Console.Out, Console.IsOutputRedirected, Environment.GetEnvironmentVariable);
var errors = ConsoleFactory.Create(Console.Error, Console.IsErrorRedirected, Environment.GetEnvironmentVariable);
return StorageTopologyCommand.Invoke(args, console, errors);
