// Posts a refund to the payment provider's REST API with no idempotency
// key: a retry refunds twice.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Payments.Activities;

public sealed record RefundRequest(string ChargeId, long AmountCents);

public sealed class RefundActivity(IHttpClientFactory clients) : WorkflowActivity<RefundRequest, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, RefundRequest request)
    {
        var http = clients.CreateClient("payments");
        var response = await http.PostAsJsonAsync("https://api.payments.example/v1/refunds", request); // want: unkeyed-side-effect
        return response.IsSuccessStatusCode;
    }
}
