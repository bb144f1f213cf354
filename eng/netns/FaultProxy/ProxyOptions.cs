// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.FaultProxy;

/// <summary>The command line: the one-way delay and jitter, where to write statistics, and port-to-port routes.</summary>
internal sealed class ProxyOptions
{
    public double DelayMs { get; private set; }

    public double JitterMs { get; private set; }

    public string? StatsPath { get; private set; }

    public int Seed { get; private set; } = 22;

    /// <summary>Gets the routes: listening port to the loopback port it forwards to.</summary>
    public Dictionary<int, int> Routes { get; } = [];

    /// <summary>Parses <c>--delay-ms D --jitter-ms J [--stats FILE] [--seed N] --route LISTEN=TARGET ...</c>.</summary>
    /// <exception cref="ArgumentException">An option is unknown, lacks its value or has a bad one (the message names it).</exception>
    public static ProxyOptions Parse(string[] args)
    {
        var options = new ProxyOptions();
        for (var i = 0; i < args.Length; i += 2)
        {
            var value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value.");
            switch (args[i])
            {
                case "--delay-ms":
                    options.DelayMs = NonNegative(args[i], value);
                    break;
                case "--jitter-ms":
                    options.JitterMs = NonNegative(args[i], value);
                    break;
                case "--stats":
                    options.StatsPath = value;
                    break;
                case "--seed":
                    options.Seed = int.Parse(value, CultureInfo.InvariantCulture);
                    break;
                case "--route":
                    var parts = value.Split('=');
                    if (parts.Length != 2 || !int.TryParse(parts[0], CultureInfo.InvariantCulture, out var from) || !int.TryParse(parts[1], CultureInfo.InvariantCulture, out var to))
                    {
                        throw new ArgumentException($"--route '{value}': expected LISTEN_PORT=TARGET_PORT.");
                    }

                    options.Routes[from] = to;
                    break;
                default:
                    throw new ArgumentException($"Unknown option '{args[i]}'.");
            }
        }

        return options.Routes.Count == 0 ? throw new ArgumentException("Give at least one --route LISTEN_PORT=TARGET_PORT.") : options;
    }

    private static double NonNegative(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number >= 0 && double.IsFinite(number)
            ? number
            : throw new ArgumentException($"{name} '{value}': expected a non-negative number of milliseconds.");
}
