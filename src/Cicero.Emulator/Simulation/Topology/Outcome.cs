// SPDX-License-Identifier: Apache-2.0


namespace Cicero.Emulator.Simulation.Topology;

/// <summary>How a request, a handler or a step ended: completed, dropped with a reason, or failed with a reason.</summary>
internal readonly record struct Outcome(OutcomeKind Kind, string Reason)
{
    public const string Timeout = "timeout";
    public const string NoReplica = "no-replica";
    public const string Unavailable = "unavailable";

    public static Outcome Ok => default;

    public bool IsOk => Kind == OutcomeKind.Completed;

    public static Outcome Dropped(DropReason reason) => new(OutcomeKind.Dropped, ReasonName(reason));

    public static Outcome Failed(string reason) => new(OutcomeKind.Failed, reason);

    public static string ReasonName(DropReason reason) => reason switch
    {
        DropReason.RateLimited => "rate-limited",
        DropReason.DeadlineInfeasible => "deadline-infeasible",
        DropReason.QueueFull => "queue-full",
        DropReason.DownstreamDropped => "downstream-dropped",
        DropReason.Policy => "policy",
        DropReason.DeadlineExpired => "deadline-expired",
        _ => "unknown",
    };
}

/// <summary>The three ends of a request (DESIGN.md §3: every request ends in exactly one).</summary>
internal enum OutcomeKind
{
    Completed = 0,
    Dropped = 1,
    Failed = 2,
}
