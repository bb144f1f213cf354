// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>
/// The latest count a long-running job reported (requests offered, bytes read), written by the job's thread and read by
/// the progress display's.
/// </summary>
internal sealed class LatestProgress : IProgress<long>
{
    private long _value;

    public long Value => Interlocked.Read(ref _value);

    public void Report(long value) => Interlocked.Exchange(ref _value, value);
}
