// corpus: negative
// negative-for: unkeyed-side-effect, key-generated-in-body
// The same publish with the CloudEvent id set from the order id: consumers
// deduplicate on it.
using Dapr.Client;
using Dapr.Workflow;

namespace Orders;

public sealed record OrderPlaced(string OrderId, decimal Total);

public sealed class PublishOrderPlacedActivity(DaprClient dapr) : WorkflowActivity<OrderPlaced, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, OrderPlaced evt)
    {
        var metadata = new Dictionary<string, string> { ["cloudevent.id"] = $"order-placed-{evt.OrderId}" };
        await dapr.PublishEventAsync("pubsub", "orders", evt, metadata);
        return true;
    }
}
