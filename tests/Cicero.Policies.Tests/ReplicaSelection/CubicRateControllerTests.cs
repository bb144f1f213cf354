// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

/// <summary>C3's Algorithm 2 with the paper's parameters: β = 0.2, γ = 4e-6, δ = 20 ms, hysteresis 2 δ, s_max = 10.</summary>
public class CubicRateControllerTests
{
    private const long Frequency = TimeSpan.TicksPerSecond;

    [Fact]
    public void CubicRate_SaddleAtR0AfterHundredMs_SteepBelow_ProbingBeyond()
    {
        var controller = Create(initialRate: 20);

        // K = ∛(β·R0/γ) = ∛(0.2 · 20 / 4e-6) = ∛1e6 = 100 ms.
        Assert.Equal(16, controller.CubicRate(0), 9);            // (1 − β)·R0 right after a decrease
        Assert.Equal(19.5, controller.CubicRate(50), 9);         // 20 − 4e-6 · 50³
        Assert.Equal(20, controller.CubicRate(100), 9);          // the saddle: R0
        Assert.Equal(20.004, controller.CubicRate(110), 9);      // flat near it
        Assert.Equal(24, controller.CubicRate(200), 9);          // probing beyond
        Assert.True(controller.CubicRate(10) - controller.CubicRate(0) > 100 * (controller.CubicRate(105) - controller.CubicRate(95)));
    }

    [Fact]
    public void OnResponse_DecreaseWhenSendingExceedsReceiving_SkippedWhileReceiveRateIsZero()
    {
        var controller = Create(initialRate: 10);
        Saturate(controller, Ms(10));
        for (var i = 0; i < 50; i++)
        {
            controller.OnResponse(Ms(10));
        }

        // Receive rate still 0 in the first window: no decrease.
        Assert.Equal(10, controller.SendingRate);

        // The window closes with 50 responses: rrate = 0.1 · 50 = 5 < 10 → srate = 0.2 · 10, R0 = 10.
        Saturate(controller, Ms(20));
        controller.OnResponse(Ms(20));
        Assert.Equal(5, controller.ReceiveRate, 9);
        Assert.Equal(2, controller.SendingRate, 9);
        Assert.Equal(10, controller.SaturationRate, 9);
    }

    [Fact]
    public void OnResponse_LowRateGrowsSteeply_ThenHysteresisBlocksDecrease()
    {
        var controller = Create(initialRate: 10);
        Saturate(controller, Ms(10));
        for (var i = 0; i < 50; i++)
        {
            controller.OnResponse(Ms(10));
        }

        Saturate(controller, Ms(20));
        controller.OnResponse(Ms(20));                           // decrease at 20 ms: srate 2, R0 10, rrate 5
        controller.OnResponse(Ms(40));                           // window 2 had 1 response: rrate = 0.1 + 0.9 · 5 = 4.6 > 2

        // ΔT = 20 ms, K = ∛(0.2 · 10 / 4e-6) = 79.37 ms: R = 4e-6 · (20 − 79.37)³ + 10 = 9.163; min(2 + 10, 9.163).
        var expected = (4e-6 * Math.Pow(20 - Math.Cbrt(5e5), 3)) + 10;
        Assert.Equal(4.6, controller.ReceiveRate, 9);
        Assert.Equal(expected, controller.SendingRate, 9);

        // srate > rrate now, but within 2 windows (40 ms) of the increase no decrease happens.
        controller.OnResponse(Ms(41));
        Assert.Equal(expected, controller.SendingRate, 9);

        Saturate(controller, Ms(81));
        controller.OnResponse(Ms(81));
        Assert.Equal(expected * 0.2, controller.SendingRate, 9);
    }

    [Fact]
    public void OnResponse_IncreaseIsCappedAtMaxStep()
    {
        var controller = Create(initialRate: 100);
        for (var i = 0; i < 250; i++)
        {
            controller.OnResponse(Ms(10));
        }

        Saturate(controller, Ms(20));
        controller.OnResponse(Ms(20));                           // rrate = 25 < 100: decrease to srate 20, R0 = 100
        Assert.Equal(20, controller.SendingRate, 9);

        // Now srate 20 < rrate 25: the curve allows (1 − β) · R0 = 80 at ΔT = 0, but one step adds at most s_max = 10.
        controller.OnResponse(Ms(20));
        Assert.Equal(30, controller.SendingRate, 9);
        controller.OnResponse(Ms(20));
        Assert.Equal(30, controller.SendingRate, 9);             // 30 > rrate now: no increase, and hysteresis blocks a decrease
    }

    [Fact]
    public void OnResponse_AfterAnIdleSpell_DoesNotCollapseTheRate()
    {
        // Regression: a client that stops calling for 2 s used to see rrate decay to ~0 and then cut srate to the floor
        // on its first responses, stalling calls for seconds.
        var controller = Create(initialRate: 10);
        for (var window = 0; window < 20; window++)
        {
            for (var i = 0; i < 5; i++)
            {
                if (controller.TryConsume(Ms((window * 20) + i)))
                {
                    controller.OnResponse(Ms((window * 20) + i + 1));
                }
            }
        }

        var before = controller.SendingRate;
        var rrateBefore = controller.ReceiveRate;
        var idleUntil = 400 + 2000;
        for (var i = 0; i < 5; i++)
        {
            if (controller.TryConsume(Ms(idleUntil + i)))
            {
                controller.OnResponse(Ms(idleUntil + i + 1));
            }
        }

        controller.OnResponse(Ms(idleUntil + 25));
        Assert.True(controller.SendingRate >= before, $"srate fell from {before} to {controller.SendingRate} after idling");
        Assert.True(controller.ReceiveRate >= rrateBefore * 0.8, $"rrate decayed from {rrateBefore} to {controller.ReceiveRate} while idle");
    }

    [Fact]
    public void OnResponse_SentButUnanswered_DecaysTheReceiveRate()
    {
        var controller = Create(initialRate: 10);
        for (var i = 0; i < 10; i++)
        {
            controller.TryConsume(Ms(i));
            controller.OnResponse(Ms(i + 1));
        }

        controller.OnResponse(Ms(21));                           // rrate = 0.1 · 10 = 1
        Assert.True(controller.TryConsume(Ms(30)));             // sent, never answered...
        controller.OnResponse(Ms(201));                          // ...then one late response: 8 empty windows decay rrate
        Assert.True(controller.ReceiveRate < 0.5, $"rrate {controller.ReceiveRate}");
    }

    [Fact]
    public void TryConsume_TokensRefillAtTheSendingRate_UpToMaxTokens()
    {
        var controller = Create(initialRate: 10);
        for (var i = 0; i < 10; i++)
        {
            Assert.True(controller.TryConsume(0));
        }

        Assert.False(controller.TryConsume(0));
        Assert.Equal(Ms(2), controller.TimeUntilToken(0));       // 10 tokens per 20 ms: one every 2 ms
        Assert.True(controller.TryConsume(Ms(2)));
        Assert.True(controller.HasToken(Ms(1000)));
        Assert.Equal(10, controller.Tokens, 9);
    }

    [Fact]
    public void OnResponse_ClientBelowItsLimit_KeepsTheLimit()
    {
        // A client that never runs out of tokens receives less than srate because it sends less, not because the
        // replica is slow: its limit must not be cut.
        var controller = Create(initialRate: 10);
        for (var window = 0; window < 50; window++)
        {
            for (var i = 0; i < 5; i++)
            {
                Assert.True(controller.TryConsume(Ms((window * 20) + i)));
                controller.OnResponse(Ms((window * 20) + i + 1));
            }
        }

        Assert.Equal(10, controller.SendingRate, 9);
    }

    [Theory]
    [InlineData(CubicRateVariant.BindingLimit, false)]
    [InlineData(CubicRateVariant.Published, true)]
    public void OnResponse_ClientBelowItsLimit_OnlyAlgorithm2AsWrittenCutsIt(CubicRateVariant variant, bool cut)
    {
        var controller = new CubicRateController(new CubicRateOptions { InitialRate = 10, Variant = variant }, Frequency, 0);
        var lowest = controller.SendingRate;
        for (var window = 0; window < 50; window++)
        {
            for (var i = 0; i < 5; i++)
            {
                if (controller.TryConsume(Ms((window * 20) + i)))
                {
                    controller.OnResponse(Ms((window * 20) + i + 1));
                    lowest = Math.Min(lowest, controller.SendingRate);
                }
            }
        }

        // 5 sent per 20 ms window against a limit of 10: rrate settles near 5 < srate, which Algorithm 2 as written cuts.
        Assert.Equal(cut, lowest < 10);
        Assert.Equal(cut, controller.LimitedCount > 0);
    }

    [Theory]
    [InlineData(RateIncreaseRule.Cubic, 9.163)]
    [InlineData(RateIncreaseRule.Additive, 3)]
    [InlineData(RateIncreaseRule.BinarySearch, 6)]
    public void OnResponse_IncreaseRule_SetsTheFirstStepAfterADecrease(RateIncreaseRule rule, double expected)
    {
        var controller = new CubicRateController(new CubicRateOptions { InitialRate = 10, Increase = rule }, Frequency, 0);
        Saturate(controller, Ms(10));
        for (var i = 0; i < 50; i++)
        {
            controller.OnResponse(Ms(10));
        }

        Saturate(controller, Ms(20));
        controller.OnResponse(Ms(20));                           // decrease: srate 2, R0 10, rrate 5
        controller.OnResponse(Ms(40));                           // rrate 4.6 > 2: one increase

        // Cubic: the curve 20 ms after the decrease (see above); AIMD: + the additive step 1; BIC: half-way to R0, 2 + 4.
        Assert.Equal(expected, controller.SendingRate, 3);
    }

    [Fact]
    public void OnResponse_BinarySearch_HalvesTheGapToR0_ThenProbesWithDoublingSteps()
    {
        var controller = new CubicRateController(new CubicRateOptions { InitialRate = 10, Increase = RateIncreaseRule.BinarySearch }, Frequency, 0);
        Saturate(controller, Ms(10));
        for (var i = 0; i < 50; i++)
        {
            controller.OnResponse(Ms(10));
        }

        Saturate(controller, Ms(20));
        controller.OnResponse(Ms(20));                           // decrease: srate 2, R0 10, rrate 5
        for (var i = 0; i < 1000; i++)
        {
            controller.OnResponse(Ms(21));                       // 2 → 6 (half-way to R0), then 6 > rrate: nothing
        }

        var rates = new List<double>();
        for (var i = 0; i < 10; i++)
        {
            controller.OnResponse(Ms(41));                       // rrate = 0.1 · 1000 + 0.9 · 5 = 104.5: every response raises
            rates.Add(controller.SendingRate);
        }

        // Half-way to R0 = 10 (at least the additive step 1), then probes of 1, 2, 4, 8 and s_max = 10.
        Assert.Equal([8, 9, 10, 11, 13, 17, 25, 35, 45, 55], rates);
    }

    [Fact]
    public void TryConsume_WithoutAToken_CountsAsLimited()
    {
        var controller = Create(initialRate: 10);
        Saturate(controller, 0);
        Assert.False(controller.HasToken(0));

        Assert.Equal(2, controller.LimitedCount);
    }

    [Fact]
    public void Options_Invalid_Throw()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new CubicRateController(new CubicRateOptions { Beta = 1 }, Frequency, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CubicRateController(new CubicRateOptions { Gamma = 0 }, Frequency, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CubicRateController(new CubicRateOptions { AdditiveStep = 0 }, Frequency, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CubicRateController(new CubicRateOptions { Variant = (CubicRateVariant)9 }, Frequency, 0));
    }

    /// <summary>Uses up the tokens and asks once more, so the limit binds at <paramref name="now"/>.</summary>
    private static void Saturate(CubicRateController controller, long now)
    {
        while (controller.TryConsume(now))
        {
        }
    }

    private static long Ms(double milliseconds) => (long)(milliseconds * Frequency / 1000);

    private static CubicRateController Create(double initialRate) =>
        new(new CubicRateOptions { InitialRate = initialRate }, Frequency, 0);
}
