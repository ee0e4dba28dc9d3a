// corpus: negative
// negative-for: unkeyed-side-effect, check-then-act
// Marks the order shipped and records the shipment in one state
// transaction guarded by the order's etag: a repeat that read an older
// version is refused by the store.
using System.Text.Json;
using Dapr.Client;
using Dapr.Workflow;

namespace Orders;

public sealed record Order(string Id, string Status, string? TrackingId);

public sealed record Shipped(string OrderId, string TrackingId);

public sealed class MarkShippedActivity(DaprClient dapr) : WorkflowActivity<Shipped, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Shipped shipped)
    {
        var (order, etag) = await dapr.GetStateAndETagAsync<Order>("orders", shipped.OrderId);
        if (order is null)
        {
            return false;
        }
        var updated = order with { Status = "shipped", TrackingId = shipped.TrackingId };
        await dapr.ExecuteStateTransactionAsync("orders", new List<StateTransactionRequest>
        {
            new(shipped.OrderId, JsonSerializer.SerializeToUtf8Bytes(updated), StateOperationType.Upsert, etag: etag),
        });
        return true;
    }
}
