// Publishes OrderPlaced through Dapr pub/sub with no message id: a retry
// publishes a second event the consumers cannot tell apart.
using Dapr.Client;
using Dapr.Workflow;

namespace Orders;

public sealed record OrderPlaced(string OrderId, decimal Total);

public sealed class PublishOrderPlacedActivity(DaprClient dapr) : WorkflowActivity<OrderPlaced, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, OrderPlaced evt)
    {
        await dapr.PublishEventAsync("pubsub", "orders", evt); // want: unkeyed-side-effect
        return true;
    }
}
