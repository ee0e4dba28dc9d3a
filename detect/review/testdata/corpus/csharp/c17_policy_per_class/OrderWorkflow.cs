// corpus: negative
// negative-for: shared-retry-policy, retried-rejection
// Transient activities share one policy; the activity that can decline is
// called with none, and its rejection comes back as a value too.
using Dapr.Workflow;

namespace Shop;

public sealed record Order(string Id, string Sku, int Quantity, decimal Total);

public sealed record ChargeOutcome(bool Approved, string? Reason);

public sealed class OrderWorkflow : Workflow<Order, bool>
{
    private static readonly WorkflowTaskOptions Transient = new(new WorkflowRetryPolicy(5, TimeSpan.FromSeconds(2), 2.0));

    public override async Task<bool> RunAsync(WorkflowContext context, Order order)
    {
        await context.CallActivityAsync(nameof(ReserveInventoryActivity), order, Transient);
        var outcome = await context.CallActivityAsync<ChargeOutcome>(nameof(ChargeCardActivity), order);
        if (!outcome.Approved)
        {
            await context.CallActivityAsync(nameof(ReleaseInventoryActivity), order, Transient);
            return false;
        }
        return true;
    }
}
