// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Resources;

/// <summary>The configuration names of the built-in sub-task schedulers.</summary>
public static class SubtaskSchedulers
{
    /// <summary>First in, first out (<see cref="FifoScheduler"/>); the default.</summary>
    public const string Fifo = "fifo";
}
