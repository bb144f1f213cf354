// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios;

/// <summary>Checks a scenario's workloads: known workflows, rates and clients in bounds, steps in time order, some load offered.</summary>
internal sealed class WorkloadValidator
{
    private readonly ScenarioChecks _checks;

    public WorkloadValidator(ScenarioChecks checks) => _checks = checks;

    public void Validate(ScenarioSpec scenario)
    {
        var workloads = scenario.Workloads;
        if (workloads is null || workloads.Count == 0)
        {
            _checks.Error("workloads", "must list at least one workload");
            return;
        }

        var offered = 0.0;
        for (var i = 0; i < workloads.Count; i++)
        {
            var path = $"workloads[{i}]";
            var workload = workloads[i];
            if (workload is null)
            {
                _checks.Error(path, "must not be null");
                continue;
            }

            if (string.IsNullOrEmpty(workload.Workflow))
            {
                _checks.Error(path + ".workflow", "is required");
            }
            else if (!_checks.Workflows.Contains(workload.Workflow))
            {
                _checks.Error(path + ".workflow", $"unknown workflow '{workload.Workflow}'; known: {ScenarioChecks.Known(_checks.Workflows)}");
            }

            var kindKnown = _checks.OneOf(path + ".kind", workload.Kind, WorkloadKinds.All);
            var closed = workload.Kind == WorkloadKinds.ClosedLoop;
            _checks.NonNegative(path + ".ratePerSecond", workload.RatePerSecond);
            _checks.AtMost(path + ".ratePerSecond", workload.RatePerSecond, ScenarioLimits.MaxRatePerSecond, "requests/s");
            _checks.AtLeast(path + ".clients", workload.Clients, 0);
            _checks.AtMost(path + ".clients", workload.Clients, ScenarioLimits.MaxClients, "clients");
            var peakRate = closed ? 0 : workload.RatePerSecond;
            if (_checks.NonNegative(path + ".startSeconds", workload.StartSeconds) && scenario.DurationSeconds > 0 && workload.StartSeconds >= scenario.DurationSeconds)
            {
                // Usually a --duration override shorter than the scenario's surge: the workload would never offer a request.
                _checks.Error(path + ".startSeconds", $"must be less than durationSeconds ({ScenarioChecks.F(scenario.DurationSeconds)}), was {ScenarioChecks.F(workload.StartSeconds)}; the workload would never start");
            }

            if (workload.StopSeconds is { } stop && !(stop > workload.StartSeconds))
            {
                _checks.Error(path + ".stopSeconds", $"must be greater than startSeconds ({ScenarioChecks.F(workload.StartSeconds)}), was {ScenarioChecks.F(stop)}");
            }

            if (workload.ThinkTime is not null)
            {
                _checks.Distribution(path + ".thinkTime", workload.ThinkTime);
            }

            if (workload.Kind == WorkloadKinds.OnOff)
            {
                _checks.Positive(path + ".onSeconds", workload.OnSeconds);
                _checks.Positive(path + ".offSeconds", workload.OffSeconds);
            }

            var offersLoad = closed ? workload.Clients > 0 : workload.RatePerSecond > 0;
            var previous = double.NegativeInfinity;
            for (var s = 0; workload.Steps is not null && s < workload.Steps.Count; s++)
            {
                var stepPath = $"{path}.steps[{s}]";
                var step = workload.Steps[s];
                if (step is null)
                {
                    _checks.Error(stepPath, "must not be null");
                    continue;
                }

                if (_checks.NonNegative(stepPath + ".atSeconds", step.AtSeconds) && step.AtSeconds < previous)
                {
                    _checks.Error(stepPath + ".atSeconds", $"steps must be in time order; {ScenarioChecks.F(step.AtSeconds)} comes after {ScenarioChecks.F(previous)}");
                }

                previous = Math.Max(previous, step.AtSeconds);
                if (kindKnown && closed)
                {
                    if (step.Clients is not { } clients)
                    {
                        _checks.Error(stepPath + ".clients", "is required for a closed-loop workload");
                    }
                    else
                    {
                        _checks.AtLeast(stepPath + ".clients", clients, 0);
                        _checks.AtMost(stepPath + ".clients", clients, ScenarioLimits.MaxClients, "clients");
                        offersLoad |= clients > 0;
                    }

                    if (step.RatePerSecond is not null)
                    {
                        _checks.Error(stepPath + ".ratePerSecond", "applies only to open-loop workloads; use clients");
                    }
                }
                else if (kindKnown)
                {
                    if (step.RatePerSecond is not { } rate)
                    {
                        _checks.Error(stepPath + ".ratePerSecond", $"is required for a {workload.Kind} workload");
                    }
                    else
                    {
                        _checks.NonNegative(stepPath + ".ratePerSecond", rate);
                        _checks.AtMost(stepPath + ".ratePerSecond", rate, ScenarioLimits.MaxRatePerSecond, "requests/s");
                        peakRate = Math.Max(peakRate, double.IsFinite(rate) ? rate : 0);
                        offersLoad |= rate > 0;
                    }

                    if (step.Clients is not null)
                    {
                        _checks.Error(stepPath + ".clients", "applies only to closed-loop workloads; use ratePerSecond");
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
                _checks.Error(path, closed ? "offers no load: clients is 0 and no step adds any" : "offers no load: ratePerSecond is 0 and no step raises it");
            }
        }

        if (offered > ScenarioLimits.MaxOfferedRequests)
        {
            _checks.Error("workloads", $"the open-loop workloads offer about {offered.ToString("N0", CultureInfo.InvariantCulture)} requests (rate x duration, summed); at most {ScenarioLimits.MaxOfferedRequests.ToString("N0", CultureInfo.InvariantCulture)} per run");
        }
    }
}
