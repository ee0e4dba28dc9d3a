// What a Release build compiles is what runs: a Debug-only Guid message
// id is not the production path. SendReceipt's Release branch sets a
// message id from the order; SendReminder's Release branch sets none.
using Azure.Messaging.ServiceBus;
using Dapr.Workflow;

namespace Notify;

public sealed record Order(string Id, string Email);

public sealed class SendReceipt(ServiceBusClient bus) : WorkflowActivity<Order, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
        await bus.CreateSender("receipts").SendMessageAsync(new ServiceBusMessage
        {
            Body = BinaryData.FromString(order.Email),
#if(DEBUG)
            MessageId = $"receipt-{Guid.NewGuid()}"
#else
            MessageId = $"receipt-{order.Id}"
#endif
        });
        return true;
    }
}

public sealed class SendReminder(ServiceBusClient bus) : WorkflowActivity<Order, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
#if DEBUG
        var message = new ServiceBusMessage(order.Email) { MessageId = order.Id };
#else
        var message = new ServiceBusMessage(order.Email);
#endif
        await bus.CreateSender("reminders").SendMessageAsync(message); // want: unkeyed-side-effect
        return true;
    }
}
