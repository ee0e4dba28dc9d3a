// The key generator reached through a using alias and a static using:
// both are still Guid.NewGuid.
using Dapr.Client;
using Dapr.Workflow;
using Ids = System.Guid;
using static System.DateTime;

namespace Vouchers;

public sealed record VoucherRequest(string CustomerId, decimal Amount);

public sealed class IssueVoucherActivity(DaprClient dapr) : WorkflowActivity<VoucherRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, VoucherRequest request)
    {
        var code = Ids.NewGuid().ToString("N")[..10];
        await dapr.SaveStateAsync("vouchers", code, request); // want: key-generated-in-body
        await dapr.SaveStateAsync("issued", $"{request.CustomerId}:{UtcNow:yyyyMMdd}", code); // want: key-generated-in-body
        return code;
    }
}
