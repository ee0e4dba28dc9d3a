using Dapr.Workflow;

namespace Warehouse;

public sealed class PickWorkflow : Workflow<Pick, bool>
{
    public override Task<bool> RunAsync(WorkflowContext context, Pick pick) =>
        context.CallActivityAsync<bool>(nameof(NotifyWarehouseActivity), pick, new WorkflowTaskOptions(
            new WorkflowRetryPolicy(maxNumberOfAttempts: 5, firstRetryInterval: TimeSpan.FromSeconds(2), backoffCoefficient: 2)));
}
