// The twin of c56: a POST to a handler in this tree that adds a row
// whose Id is a fresh Guid: a retry registers the supplier twice.
using Dapr.Client;
using Dapr.Workflow;

namespace Vendors.Activities;

public sealed record NewSupplier(string Name, int Rating);

public sealed class RegisterSupplier(DaprClient dapr) : WorkflowActivity<NewSupplier, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, NewSupplier supplier)
    {
        var req = dapr.CreateInvokeMethodRequest(HttpMethod.Post, "vendors", "supplier/register", supplier);
        var res = await dapr.InvokeMethodWithResponseAsync(req);
        return res.IsSuccessStatusCode;
    }
}
