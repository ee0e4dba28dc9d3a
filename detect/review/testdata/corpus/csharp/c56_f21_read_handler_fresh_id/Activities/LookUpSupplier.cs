// corpus: negative (already idempotent)
// negative-for: key-generated-in-body, unkeyed-side-effect
// A GET to a service in this tree whose [HttpGet] handler builds the
// answer with a fresh Guid as the record's Id: the id is a value the
// read returns, no write keys anything with it, so a repeat changes
// nothing.
using Dapr.Client;
using Dapr.Workflow;

namespace Procurement.Activities;

public sealed record SupplierCard(string Id, string Name, int Rating);

public sealed class LookUpSupplier(DaprClient dapr) : WorkflowActivity<string, string?>
{
    public override async Task<string?> RunAsync(WorkflowActivityContext context, string supplier)
    {
        var req = dapr.CreateInvokeMethodRequest(HttpMethod.Get, "suppliers", $"supplier/{supplier}");
        var res = await dapr.InvokeMethodWithResponseAsync(req);
        if (!res.IsSuccessStatusCode)
        {
            return null;
        }
        var card = await res.Content.ReadFromJsonAsync<SupplierCard>();
        return card?.Name;
    }
}
