// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.Scheduling;

namespace Cicero.Emulator.Scenarios;

/// <summary>Workloads, configurations and distributions.</summary>
internal sealed partial class ScenarioValidator
{
    private void ValidateWorkloads(ScenarioSpec scenario)
    {
        var workloads = scenario.Workloads;
        if (workloads is null || workloads.Count == 0)
        {
            Error("workloads", "must list at least one workload");
            return;
        }

        var offered = 0.0;
        for (var i = 0; i < workloads.Count; i++)
        {
            var path = $"workloads[{i}]";
            var workload = workloads[i];
            if (workload is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (string.IsNullOrEmpty(workload.Workflow))
            {
                Error(path + ".workflow", "is required");
            }
            else if (!_workflows.Contains(workload.Workflow))
            {
                Error(path + ".workflow", $"unknown workflow '{workload.Workflow}'; known: {Known(_workflows)}");
            }

            var kindKnown = OneOf(path + ".kind", workload.Kind, WorkloadKinds.All);
            var closed = workload.Kind == WorkloadKinds.ClosedLoop;
            NonNegative(path + ".ratePerSecond", workload.RatePerSecond);
            AtMost(path + ".ratePerSecond", workload.RatePerSecond, ScenarioLimits.MaxRatePerSecond, "requests/s");
            AtLeast(path + ".clients", workload.Clients, 0);
            AtMost(path + ".clients", workload.Clients, ScenarioLimits.MaxClients, "clients");
            var peakRate = closed ? 0 : workload.RatePerSecond;
            if (NonNegative(path + ".startSeconds", workload.StartSeconds) && scenario.DurationSeconds > 0 && workload.StartSeconds >= scenario.DurationSeconds)
            {
                // Usually a --duration override shorter than the scenario's surge: the workload would never offer a request.
                Error(path + ".startSeconds", $"must be less than durationSeconds ({F(scenario.DurationSeconds)}), was {F(workload.StartSeconds)}; the workload would never start");
            }

            if (workload.StopSeconds is { } stop && !(stop > workload.StartSeconds))
            {
                Error(path + ".stopSeconds", $"must be greater than startSeconds ({F(workload.StartSeconds)}), was {F(stop)}");
            }

            if (workload.ThinkTime is not null)
            {
                Distribution(path + ".thinkTime", workload.ThinkTime);
            }

            if (workload.Kind == WorkloadKinds.OnOff)
            {
                Positive(path + ".onSeconds", workload.OnSeconds);
                Positive(path + ".offSeconds", workload.OffSeconds);
            }

            var offersLoad = closed ? workload.Clients > 0 : workload.RatePerSecond > 0;
            var previous = double.NegativeInfinity;
            for (var s = 0; workload.Steps is not null && s < workload.Steps.Count; s++)
            {
                var stepPath = $"{path}.steps[{s}]";
                var step = workload.Steps[s];
                if (step is null)
                {
                    Error(stepPath, "must not be null");
                    continue;
                }

                if (NonNegative(stepPath + ".atSeconds", step.AtSeconds) && step.AtSeconds < previous)
                {
                    Error(stepPath + ".atSeconds", $"steps must be in time order; {F(step.AtSeconds)} comes after {F(previous)}");
                }

                previous = Math.Max(previous, step.AtSeconds);
                if (kindKnown && closed)
                {
                    if (step.Clients is not { } clients)
                    {
                        Error(stepPath + ".clients", "is required for a closed-loop workload");
                    }
                    else
                    {
                        AtLeast(stepPath + ".clients", clients, 0);
                        AtMost(stepPath + ".clients", clients, ScenarioLimits.MaxClients, "clients");
                        offersLoad |= clients > 0;
                    }

                    if (step.RatePerSecond is not null)
                    {
                        Error(stepPath + ".ratePerSecond", "applies only to open-loop workloads; use clients");
                    }
                }
                else if (kindKnown)
                {
                    if (step.RatePerSecond is not { } rate)
                    {
                        Error(stepPath + ".ratePerSecond", $"is required for a {workload.Kind} workload");
                    }
                    else
                    {
                        NonNegative(stepPath + ".ratePerSecond", rate);
                        AtMost(stepPath + ".ratePerSecond", rate, ScenarioLimits.MaxRatePerSecond, "requests/s");
                        peakRate = Math.Max(peakRate, double.IsFinite(rate) ? rate : 0);
                        offersLoad |= rate > 0;
                    }

                    if (step.Clients is not null)
                    {
                        Error(stepPath + ".clients", "applies only to closed-loop workloads; use ratePerSecond");
                    }
                }
            }

            if (double.IsFinite(peakRate) && double.IsFinite(scenario.DurationSeconds) && double.IsFinite(workload.StartSeconds))
            {
                var end = Math.Min(workload.StopSeconds is { } s2 && double.IsFinite(s2) ? s2 : scenario.DurationSeconds, scenario.DurationSeconds);
                offered += peakRate * Math.Max(0, end - workload.StartSeconds);
            }

            if (kindKnown && !offersLoad)
            {
                Error(path, closed ? "offers no load: clients is 0 and no step adds any" : "offers no load: ratePerSecond is 0 and no step raises it");
            }
        }

        if (offered > ScenarioLimits.MaxOfferedRequests)
        {
            Error("workloads", $"the open-loop workloads offer about {offered.ToString("N0", CultureInfo.InvariantCulture)} requests (rate x duration, summed); at most {ScenarioLimits.MaxOfferedRequests.ToString("N0", CultureInfo.InvariantCulture)} per run");
        }
    }

    private void ValidateConfigurations(IList<ConfigurationSpec>? configurations)
    {
        if (configurations is null || configurations.Count == 0)
        {
            Error("configurations", "must list at least one configuration");
            return;
        }

        var names = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < configurations.Count; i++)
        {
            var path = $"configurations[{i}]";
            var configuration = configurations[i];
            if (configuration is null)
            {
                Error(path, "must not be null");
                continue;
            }

            if (configuration.Name is not null && !names.Add(configuration.Name))
            {
                Error(path + ".name", $"duplicate configuration name '{configuration.Name}'");
            }

            ValidateConfiguration(path, configuration);
        }
    }

    /// <summary>Validates a configuration on its own (one passed to a run rather than listed in the scenario).</summary>
    public IReadOnlyList<ScenarioError> ValidateConfiguration(ConfigurationSpec configuration, string path, ScenarioSpec scenario)
    {
        _workflowsWithSlo = scenario.Workflows?.Count(w => w?.LatencySloMs is > 0) ?? 0;
        ValidateConfiguration(path, configuration);
        return _errors;
    }

    private void ValidateConfiguration(string path, ConfigurationSpec configuration)
    {
        Name(path + ".name", configuration.Name);
        OneOf(path + ".scheduler", configuration.Scheduler, _catalog.SchedulerNames, ignoreCase: true);
        if (string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.CakeSlo, StringComparison.OrdinalIgnoreCase))
        {
            ValidateCake(path, configuration);
        }
        else
        {
            OneOf(path + ".rateLimitPolicy", configuration.RateLimitPolicy, _catalog.RateLimitPolicyNames, ignoreCase: true);
        }

        if (configuration.ReplicaSelector is not null)
        {
            ReplicaSelector(path + ".replicaSelector", configuration.ReplicaSelector);
        }

        if (configuration.RateControlSettings is { } rateControl
            && RateControlBinding.Check(rateControl, string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase)) is { } problem)
        {
            Error(path + ".rateControl", problem);
        }

        foreach (var (field, value) in configuration.RemovedFields ?? [])
        {
            Error(path + "." + field, RateControlBinding.Replacement(field, value) ?? "unknown field; check its spelling against docs/emulator.md");
        }

        if (configuration.C3MaxTokens is { } tokens && !(tokens >= 1 && double.IsFinite(tokens)))
        {
            Error(path + ".c3MaxTokens", $"must be >= 1, was {F(tokens)}");
        }

        if (configuration.C3RateVariant is { } variant && variant is not ("published" or "binding-limit"))
        {
            Error(path + ".c3RateVariant", $"must be 'published' or 'binding-limit', was '{variant}'");
        }

        OneOf(path + ".dropPolicy", configuration.DropPolicy, _catalog.DropPolicyNames, ignoreCase: true);
        if (!(configuration.Quantile >= 0 && configuration.Quantile <= 1))
        {
            Error(path + ".quantile", $"must be in [0, 1], was {F(configuration.Quantile)}");
        }

        Positive(path + ".controlIntervalMs", configuration.ControlIntervalMs);
        if (configuration.DeadlineMs is { } deadline)
        {
            Positive(path + ".deadlineMs", deadline);
        }

        AtLeast(path + ".admissionQueueLimit", configuration.AdmissionQueueLimit, 0);
    }

    /// <summary>
    /// cake-slo is not in the catalog: it drives one process's Cake share scheduler, so the runner builds it per instance
    /// (docs/emulator.md). It needs that scheduler, the rate adaptation loop it runs on, and at least one SLO.
    /// </summary>
    private void ValidateCake(string path, ConfigurationSpec configuration)
    {
        if (!string.Equals(configuration.Scheduler, SubtaskSchedulerNames.CakeShares, StringComparison.OrdinalIgnoreCase))
        {
            Error(path + ".scheduler", $"'{RateLimitPolicies.CakeSlo}' drives Cake's share scheduler; set scheduler to '{SubtaskSchedulerNames.CakeShares}', was '{configuration.Scheduler}'");
        }

        if (!configuration.RateControl)
        {
            Error(path + ".rateControl", $"'{RateLimitPolicies.CakeSlo}' runs on the rate adaptation loop; set rateControl to true");
        }

        if (_workflowsWithSlo == 0)
        {
            Error(path + ".rateLimitPolicy", $"'{RateLimitPolicies.CakeSlo}' needs at least one workflow with latencySloMs");
        }

        if (!(configuration.SloPercentile > 0 && configuration.SloPercentile <= 1))
        {
            Error(path + ".sloPercentile", $"must be in (0, 1], was {F(configuration.SloPercentile)}");
        }

        Positive(path + ".sloIntervalSeconds", configuration.SloIntervalSeconds);
    }

    private void Distribution(string path, DistributionSpec distribution)
    {
        if (!OneOf(path + ".distribution", distribution.Distribution, DistributionKinds.All))
        {
            return;
        }

        if (distribution.Distribution == DistributionKinds.Constant)
        {
            NonNegative(path + ".meanMs", distribution.MeanMs);
        }
        else
        {
            Positive(path + ".meanMs", distribution.MeanMs);
        }

        if (distribution.Distribution == DistributionKinds.LogNormal)
        {
            Positive(path + ".cv", distribution.Cv);
        }
    }
}
