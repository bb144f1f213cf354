// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// Imports the Azure LLM inference trace (<c>AzureLLMInferenceTrace_*.csv</c>: <c>TIMESTAMP,ContextTokens,GeneratedTokens</c>):
/// a bursty front-end arrival process at 100 ns resolution. Each row is one request of one tenant (by default the file's
/// name) and one operation (<c>infer</c>); arrival = the timestamp minus the first row's; request bytes =
/// <c>ContextTokens</c> x <see cref="AzureLlmImportOptions.BytesPerToken"/>, response bytes = <c>GeneratedTokens</c> x the
/// same. The trace has no fan-out or service times, so those fields stay empty.
/// </summary>
/// <remarks>Thread-safe and stateless; memory per enumeration is constant (no grouping).</remarks>
public sealed class AzureLlmTraceImporter : ITraceImporter
{
    private const long TicksPerMs = TimeSpan.TicksPerMillisecond;
    private readonly AzureLlmImportOptions _options;

    /// <summary>Creates the importer.</summary>
    /// <param name="options">The options; defaults when omitted.</param>
    /// <exception cref="ArgumentException">The operation or tenant is not a valid name, or bytes per token is not positive.</exception>
    public AzureLlmTraceImporter(AzureLlmImportOptions? options = null)
    {
        _options = options ?? new AzureLlmImportOptions();
        if (!TraceNames.IsValid(_options.Operation) || (_options.Tenant is { } tenant && !TraceNames.IsValid(tenant)))
        {
            throw new ArgumentException("Tenant and operation must be valid trace names (letters, digits, '-', '_', '.', '+').", nameof(options));
        }

        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(_options.BytesPerToken, nameof(options));
    }

    /// <inheritdoc/>
    public string Format => TraceImport.AzureLlm;

    /// <inheritdoc/>
    public IEnumerable<TraceRequest> Import(Stream input, string fileName)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(fileName);
        var tenant = _options.Tenant ?? TraceNames.Sanitize(Path.GetFileNameWithoutExtension(fileName));
        return Iterate(input, fileName, tenant, _options.Operation, _options.BytesPerToken);
    }

    private static IEnumerable<TraceRequest> Iterate(Stream stream, string fileName, string tenant, string operation, long bytesPerToken)
    {
        using var input = new CsvInput(stream, fileName);
        var time = input.Require("TIMESTAMP");
        var context = input.Require("ContextTokens");
        var generated = input.Require("GeneratedTokens");
        long origin = -1, previous = -1;
        while (input.TryReadRow())
        {
            if (!TryParseTimestamp(input[time], out var ticks))
            {
                throw input.Error(time, "expected a time like 2023-11-16 18:17:03.9799600");
            }

            if (ticks < previous)
            {
                throw input.Error(time, "rows must be in time order; this one is earlier than the previous row");
            }

            previous = ticks;
            if (origin < 0)
            {
                origin = ticks;
            }

            var sent = input.Integer(context) * bytesPerToken;
            var received = input.Integer(generated) * bytesPerToken;
            yield return new TraceRequest((double)(ticks - origin) / TicksPerMs, tenant, operation, sent, received);
        }
    }

    /// <summary>Parses <c>yyyy-MM-dd HH:mm:ss[.f to fffffff]</c> (a 'T' may replace the space) into ticks, without allocating.</summary>
    internal static bool TryParseTimestamp(ReadOnlySpan<byte> text, out long ticks)
    {
        ticks = 0;
        if (text.Length < 19 || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':'
            || !TryDigits(text[..4], out var year) || !TryDigits(text[5..7], out var month) || !TryDigits(text[8..10], out var day)
            || !TryDigits(text[11..13], out var hour) || !TryDigits(text[14..16], out var minute) || !TryDigits(text[17..19], out var second)
            || year < 1 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            return false;
        }

        long fraction = 0;
        if (text.Length > 19)
        {
            var digits = text[20..];
            if (text[19] != '.' || digits.IsEmpty || digits.Length > 7 || !TryDigits(digits, out var value))
            {
                return false;
            }

            fraction = value;
            for (var i = digits.Length; i < 7; i++)
            {
                fraction *= 10;
            }
        }

        ticks = new DateTime(year, month, day, hour, minute, second, DateTimeKind.Unspecified).Ticks + fraction;
        return true;
    }

    private static bool TryDigits(ReadOnlySpan<byte> text, out int value)
    {
        value = 0;
        foreach (var b in text)
        {
            if (b is < (byte)'0' or > (byte)'9')
            {
                return false;
            }

            value = (value * 10) + (b - '0');
        }

        return true;
    }
}
