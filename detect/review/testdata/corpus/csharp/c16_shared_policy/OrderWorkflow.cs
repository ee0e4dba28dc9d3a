// One WorkflowTaskOptions field for every call: ChargeCard can decline
// (a permanent rejection), yet it is retried on the schedule meant for the
// inventory service's transient failures. (The shape of dapr/dotnet-sdk's
// examples/Workflow/WorkflowConsoleApp OrderProcessingWorkflow.)
using Dapr.Workflow;

namespace Shop;

public sealed record Order(string Id, string Sku, int Quantity, decimal Total);

public sealed class OrderWorkflow : Workflow<Order, bool>
{
    readonly WorkflowTaskOptions defaultActivityRetryOptions = new WorkflowTaskOptions
    {
        RetryPolicy = new WorkflowRetryPolicy(maxNumberOfAttempts: 3, firstRetryInterval: TimeSpan.FromSeconds(5)),
    };

    public override async Task<bool> RunAsync(WorkflowContext context, Order order)
    {
        await context.CallActivityAsync(nameof(ReserveInventoryActivity), order, this.defaultActivityRetryOptions); // want: shared-retry-policy
        await context.CallActivityAsync(nameof(ChargeCardActivity), order, this.defaultActivityRetryOptions); // want: retried-rejection, shared-retry-policy
        return true;
    }
}
