// SPDX-License-Identifier: Apache-2.0

using Cicero.C3Simulation;

return C3SimulationCommand.Run(args, Console.Out, Console.Error);
