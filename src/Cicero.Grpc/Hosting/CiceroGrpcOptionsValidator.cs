// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Policies.Registration;
using Cicero.Runtime;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Hosting;

/// <summary>Checks <see cref="CiceroGrpcOptions"/> at start-up and names every problem with the setting's path.</summary>
internal sealed class CiceroGrpcOptionsValidator(PolicyCatalog catalog, CiceroConfigurationPath? root = null) : IValidateOptions<CiceroGrpcOptions>
{
    private readonly CiceroConfigurationPath _root = root ?? CiceroConfigurationPath.Default;

    public ValidateOptionsResult Validate(string? name, CiceroGrpcOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var errors = new List<string>();
        if (string.IsNullOrWhiteSpace(options.ServiceName))
        {
            errors.Add($"{_root.Of("ServiceName")} is required (the name of this service, e.g. \"frontend\").");
        }

        if (options.InstanceId is { } id && !Uri.TryCreate(id, UriKind.Absolute, out _))
        {
            errors.Add($"{_root.Of("InstanceId")} '{id}' must be the absolute address callers reach this instance at (e.g. http://10.0.0.5:5000).");
        }

        if (options.MaxContextHeaderBytes < 16)
        {
            errors.Add($"{_root.Of("MaxContextHeaderBytes")} must be at least 16; was {options.MaxContextHeaderBytes}.");
        }

        var rate = options.Core.RateAdaptation;
        var beforeRate = errors.Count;
        if (rate.Quantile is < 0 or > 1 || double.IsNaN(rate.Quantile))
        {
            errors.Add($"{_root.Of("Core:RateAdaptation:Quantile")} must be in [0, 1]; was {rate.Quantile}.");
        }

        if (rate.Interval <= TimeSpan.Zero)
        {
            errors.Add($"{_root.Of("Core:RateAdaptation:Interval")} must be positive; was {rate.Interval}.");
        }

        if (rate.QueryTimeout <= TimeSpan.Zero || rate.QueryTimeout > rate.Interval)
        {
            errors.Add($"{_root.Of("Core:RateAdaptation:QueryTimeout")} must be positive and at most the interval ({rate.Interval}); was {rate.QueryTimeout}.");
        }

        if (options.Core.MaxWorkflows < 2)
        {
            errors.Add($"{_root.Of("Core:MaxWorkflows")} must be at least 2; was {options.Core.MaxWorkflows}.");
        }

        var rateChecked = errors.Count == beforeRate;
        CheckCore(errors, "Core:Model", () => CiceroOptionsValidation.Validate(options.Core.Model));
        CheckCore(errors, "Core:Admission", () => CiceroOptionsValidation.Validate(options.Core.Admission));
        if (rateChecked)
        {
            // Only when the rules above passed, so a bad quantile or interval is not reported twice.
            CheckCore(errors, "Core:RateAdaptation", () => CiceroOptionsValidation.Validate(rate));
        }

        CheckName(errors, _root.Of("RateLimitPolicy"), options.RateLimitPolicy, catalog.RateLimitPolicyNames);
        CheckName(errors, _root.Of("DropPolicy"), options.DropPolicy, catalog.DropPolicyNames);

        var resourceNames = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < options.Resources.Count; i++)
        {
            var resource = options.Resources[i];
            var path = _root.Of($"Resources[{i}]");
            if (string.IsNullOrWhiteSpace(resource.Name))
            {
                errors.Add($"{path}:Name is required.");
            }
            else if (!resourceNames.Add(resource.Name))
            {
                errors.Add($"{path}:Name '{resource.Name}' is used twice.");
            }

            if (resource.Capacity < 1)
            {
                errors.Add($"{path}:Capacity must be at least 1; was {resource.Capacity}.");
            }

            if (resource.MaxQueueLength < 0)
            {
                errors.Add($"{path}:MaxQueueLength must be at least 0; was {resource.MaxQueueLength}.");
            }

            CheckName(errors, $"{path}:Scheduler", resource.Scheduler, catalog.SchedulerNames);
        }

        var downstreamNames = new HashSet<string>(StringComparer.Ordinal);
        var balancers = catalog.ReplicaSelectorNames.Append(LoadBalancingConfig.RoundRobinPolicyName).Append(LoadBalancingConfig.PickFirstPolicyName).ToArray();
        for (var i = 0; i < options.Downstreams.Count; i++)
        {
            var downstream = options.Downstreams[i];
            var path = _root.Of($"Downstreams[{i}]");
            if (string.IsNullOrWhiteSpace(downstream.Name))
            {
                errors.Add($"{path}:Name is required.");
            }
            else if (!downstreamNames.Add(downstream.Name))
            {
                errors.Add($"{path}:Name '{downstream.Name}' is used twice.");
            }

            if (downstream.Addresses.Count == 0)
            {
                errors.Add($"{path}:Addresses needs at least one address.");
            }

            for (var j = 0; j < downstream.Addresses.Count; j++)
            {
                var address = downstream.Addresses[j];
                if (!Uri.TryCreate(address, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
                {
                    errors.Add($"{path}:Addresses[{j}] '{address}' is not an absolute http or https address.");
                }
            }

            CheckName(errors, $"{path}:LoadBalancingPolicy", downstream.LoadBalancingPolicy, balancers);
        }

        return errors.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(errors);
    }

    /// <summary>Runs a Core options class's own rule check, naming its first problem by path.</summary>
    private void CheckCore(List<string> errors, string section, Action validate)
    {
        try
        {
            validate();
        }
        catch (ArgumentException ex)
        {
            var message = ex.Message;
            var parameter = message.IndexOf(" (Parameter '", StringComparison.Ordinal);
            message = parameter >= 0 ? message[..parameter] : message;
            var was = ex is ArgumentOutOfRangeException { ActualValue: { } actual } && !message.Contains($"'{actual}'", StringComparison.Ordinal)
                ? $"; was {actual}"
                : string.Empty;
            errors.Add($"{_root.Of($"{section}:{ex.ParamName}")}: {message}{was}");
        }
    }

    private static void CheckName(List<string> errors, string path, string? value, IReadOnlyList<string> known)
    {
        if (string.IsNullOrWhiteSpace(value) || !known.Contains(value, StringComparer.OrdinalIgnoreCase))
        {
            errors.Add($"{path} '{value}' is unknown; known: {string.Join(", ", known)}.");
        }
    }
}
