// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.Policies.Scheduling;

namespace Cicero.Emulator.Scenarios;

/// <summary>Checks a scenario's configurations (or one configuration passed to a run): policies by catalog name, their knobs, cake-slo's needs.</summary>
internal sealed class ConfigurationValidator
{
    private readonly ScenarioChecks _checks;

    public ConfigurationValidator(ScenarioChecks checks) => _checks = checks;

    public void ValidateAll(IList<ConfigurationSpec>? configurations)
    {
        if (configurations is null || configurations.Count == 0)
        {
            _checks.Error("configurations", "must list at least one configuration");
            return;
        }

        var names = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < configurations.Count; i++)
        {
            var path = $"configurations[{i}]";
            var configuration = configurations[i];
            if (configuration is null)
            {
                _checks.Error(path, "must not be null");
                continue;
            }

            if (configuration.Name is not null && !names.Add(configuration.Name))
            {
                _checks.Error(path + ".name", $"duplicate configuration name '{configuration.Name}'");
            }

            ValidateConfiguration(path, configuration);
        }
    }

    /// <summary>Validates a configuration on its own (one passed to a run rather than listed in the scenario).</summary>
    public IReadOnlyList<ScenarioError> ValidateAlone(ConfigurationSpec configuration, string path, ScenarioSpec scenario)
    {
        _checks.WorkflowsWithSlo = scenario.Workflows?.Count(w => w?.LatencySloMs is > 0) ?? 0;
        ValidateConfiguration(path, configuration);
        return _checks.Errors;
    }

    private void ValidateConfiguration(string path, ConfigurationSpec configuration)
    {
        _checks.Name(path + ".name", configuration.Name);
        _checks.OneOf(path + ".scheduler", configuration.Scheduler, _checks.Catalog.SchedulerNames, ignoreCase: true);
        if (string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.CakeSlo, StringComparison.OrdinalIgnoreCase))
        {
            ValidateCake(path, configuration);
        }
        else
        {
            _checks.OneOf(path + ".rateLimitPolicy", configuration.RateLimitPolicy, _checks.Catalog.RateLimitPolicyNames, ignoreCase: true);
        }

        if (configuration.ReplicaSelector is not null)
        {
            _checks.ReplicaSelector(path + ".replicaSelector", configuration.ReplicaSelector);
        }

        if (configuration.RateControlSettings is { } rateControl
            && RateControlBinding.Check(rateControl, string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase)) is { } problem)
        {
            _checks.Error(path + ".rateControl", problem);
        }

        foreach (var (field, value) in configuration.RemovedFields ?? [])
        {
            _checks.Error(path + "." + field, RateControlBinding.Replacement(field, value) ?? "unknown field; check its spelling against docs/emulator.md");
        }

        if (configuration.C3MaxTokens is { } tokens && !(tokens >= 1 && double.IsFinite(tokens)))
        {
            _checks.Error(path + ".c3MaxTokens", $"must be >= 1, was {ScenarioChecks.F(tokens)}");
        }

        if (configuration.C3RateVariant is { } variant && CubicRateVariants.Parse(variant) is null)
        {
            _checks.Error(path + ".c3RateVariant", $"must be {CubicRateVariants.Names}, was '{variant}'");
        }

        _checks.OneOf(path + ".dropPolicy", configuration.DropPolicy, _checks.Catalog.DropPolicyNames, ignoreCase: true);
        if (!(configuration.Quantile >= 0 && configuration.Quantile <= 1))
        {
            _checks.Error(path + ".quantile", $"must be in [0, 1], was {ScenarioChecks.F(configuration.Quantile)}");
        }

        _checks.Positive(path + ".controlIntervalMs", configuration.ControlIntervalMs);
        if (configuration.DeadlineMs is { } deadline)
        {
            _checks.Positive(path + ".deadlineMs", deadline);
        }

        _checks.AtLeast(path + ".admissionQueueLimit", configuration.AdmissionQueueLimit, 0);
    }

    /// <summary>
    /// cake-slo is not in the catalog: it drives one process's Cake share scheduler, so the runner builds it per instance
    /// (docs/emulator.md). It needs that scheduler, the rate adaptation loop it runs on, and at least one SLO.
    /// </summary>
    private void ValidateCake(string path, ConfigurationSpec configuration)
    {
        if (!string.Equals(configuration.Scheduler, SubtaskSchedulerNames.CakeShares, StringComparison.OrdinalIgnoreCase))
        {
            _checks.Error(path + ".scheduler", $"'{RateLimitPolicies.CakeSlo}' drives Cake's share scheduler; set scheduler to '{SubtaskSchedulerNames.CakeShares}', was '{configuration.Scheduler}'");
        }

        if (!configuration.RateControl)
        {
            _checks.Error(path + ".rateControl", $"'{RateLimitPolicies.CakeSlo}' runs on the rate adaptation loop; set rateControl to true");
        }

        if (_checks.WorkflowsWithSlo == 0)
        {
            _checks.Error(path + ".rateLimitPolicy", $"'{RateLimitPolicies.CakeSlo}' needs at least one workflow with latencySloMs");
        }

        if (!(configuration.SloPercentile > 0 && configuration.SloPercentile <= 1))
        {
            _checks.Error(path + ".sloPercentile", $"must be in (0, 1], was {ScenarioChecks.F(configuration.SloPercentile)}");
        }

        _checks.Positive(path + ".sloIntervalSeconds", configuration.SloIntervalSeconds);
    }
}
