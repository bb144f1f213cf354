// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.Resources;

/// <summary>Removal by ticket id from a queue of waiting sub-tasks, shared by the queue-based schedulers.</summary>
internal static class TicketQueueExtensions
{
    /// <summary>Removes the ticket with <paramref name="id"/>, keeping the order of the rest; O(n).</summary>
    public static bool TryRemoveById(this Deque<SubtaskTicket> queue, long id)
    {
        for (var i = 0; i < queue.Count; i++)
        {
            if (queue[i].Id == id)
            {
                queue.RemoveAt(i);
                return true;
            }
        }

        return false;
    }
}
