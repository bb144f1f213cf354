// SPDX-License-Identifier: Apache-2.0

using System.Security.Claims;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Workflows;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Classification;

public sealed class WorkflowClassifiersTests
{
    [Fact]
    public void ByMethod_IsOneWorkflowPerMethod()
    {
        var classifier = WorkflowClassifiers.ByMethod();

        Assert.Equal("/cicero.test.Probe/Work", classifier.Classify(new TestServerCallContext("/cicero.test.Probe/Work")).Value);
        Assert.Equal("/cicero.test.Probe/Split", classifier.Classify(new TestServerCallContext("/cicero.test.Probe/Split")).Value);
    }

    [Theory]
    [InlineData("gold", "gold")]
    [InlineData("", "anonymous")]
    [InlineData("has space", "anonymous")]
    [InlineData(null, "anonymous")]
    public void ByHeader_TakesAValidHeader_ElseTheFallback(string? tenant, string expected)
    {
        var headers = new Metadata();
        if (tenant is not null)
        {
            headers.Add("x-tenant", tenant);
        }

        var classifier = WorkflowClassifiers.ByHeader("X-Tenant");

        Assert.Equal(expected, classifier.Classify(new TestServerCallContext(requestHeaders: headers)).Value);
    }

    [Fact]
    public void ByUser_ReadsTheAuthenticatedCaller_FromTheHttpContext()
    {
        var signedIn = new TestServerCallContext().WithHttpHeader("x-unrelated", "1");
        signedIn.Http!.User = new ClaimsPrincipal(new ClaimsIdentity([new Claim(ClaimTypes.Name, "alice"), new Claim("tenant", "acme")], "test"));
        var anonymous = new TestServerCallContext().WithHttpHeader("x-unrelated", "1");

        Assert.Equal("alice", WorkflowClassifiers.ByUser().Classify(signedIn).Value);
        Assert.Equal("acme", WorkflowClassifiers.ByUser("tenant").Classify(signedIn).Value);
        Assert.Equal("guest", WorkflowClassifiers.ByUser(fallback: "guest").Classify(anonymous).Value);
    }

    [Fact]
    public void FixedAndFromDelegate_ReturnWhatTheyAreGiven()
    {
        var call = new TestServerCallContext("/a.B/C");

        Assert.Equal("one", WorkflowClassifiers.Fixed("one").Classify(call).Value);
        Assert.Equal("C", WorkflowClassifiers.FromDelegate(c => new WorkflowId(c.Method[(c.Method.LastIndexOf('/') + 1)..])).Classify(call).Value);
        Assert.Throws<ArgumentNullException>(() => WorkflowClassifiers.FromDelegate(null!));
        Assert.Throws<ArgumentException>(() => WorkflowClassifiers.ByHeader(" "));
    }
}
