// Shipment events through three brokers: Confluent.Kafka, MassTransit's
// publish endpoint and a bus with no message id. Each second run
// publishes a duplicate.
using Confluent.Kafka;
using Dapr.Workflow;
using MassTransit;

namespace Shipping;

public sealed record Shipped(string OrderId, string Carrier);

public sealed class AnnounceShippedActivity(IProducer<string, string> producer) : WorkflowActivity<Shipped, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Shipped evt)
    {
        await producer.ProduceAsync("shipped", new Message<string, string> { Key = evt.OrderId, Value = evt.Carrier }); // want: unkeyed-side-effect
        return true;
    }
}

public sealed class PublishShippedActivity(IPublishEndpoint endpoint) : WorkflowActivity<Shipped, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Shipped evt)
    {
        await endpoint.Publish(evt); // want: unkeyed-side-effect
        return true;
    }
}

public interface IEventBus
{
    Task Publish(object evt);
}

public sealed class BroadcastShippedActivity(IEventBus bus) : WorkflowActivity<Shipped, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Shipped evt)
    {
        await bus.Publish(evt); // want: unkeyed-side-effect
        return true;
    }
}
