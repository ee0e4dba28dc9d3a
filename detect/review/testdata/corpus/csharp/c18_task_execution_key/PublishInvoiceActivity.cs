// Sends the invoice to a Service Bus queue with the message id taken from
// context.TaskExecutionKey: the .NET SDK schedules each retry as a new task
// with a new execution id, so the broker's duplicate detection never
// matches.
using Azure.Messaging.ServiceBus;
using Dapr.Workflow;

namespace Billing;

public sealed record Invoice(string InvoiceId, string CustomerId, decimal Amount);

public sealed class PublishInvoiceActivity(ServiceBusSender sender) : WorkflowActivity<Invoice, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Invoice invoice)
    {
        var message = new ServiceBusMessage(BinaryData.FromObjectAsJson(invoice))
        {
            MessageId = context.TaskExecutionKey, // want: per-attempt-key
        };
        await sender.SendMessageAsync(message);
        return true;
    }
}
