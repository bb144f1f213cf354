// SPDX-License-Identifier: Apache-2.0

using Cicero.Reproduction;

return ReproduceCommand.Run(args, Console.Out, Console.Error);
