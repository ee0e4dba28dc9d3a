// corpus: negative
// negative-for: unkeyed-side-effect, check-then-act
// Reads the order, computes the invoice total and saves the invoice under
// the order's own key: the same document every run, not a count.
using Dapr.Client;
using Dapr.Workflow;

namespace Billing;

public sealed record Order(string Id, decimal Subtotal, decimal Shipping);

public sealed record Invoice(string OrderId, decimal Total);

public sealed class InvoiceActivity(DaprClient dapr) : WorkflowActivity<string, decimal>
{
    public override async Task<decimal> RunAsync(WorkflowActivityContext context, string orderId)
    {
        var order = await dapr.GetStateAsync<Order>("orders", orderId);
        var total = order.Subtotal + order.Shipping;
        await dapr.SaveStateAsync("invoices", $"invoice-{orderId}", new Invoice(orderId, total));
        return total;
    }
}
