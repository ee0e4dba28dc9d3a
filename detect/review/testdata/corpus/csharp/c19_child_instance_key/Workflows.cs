// The parent calls a child workflow with a retry policy; the child keys
// its shipment on its own instance id, which a retried child does not
// share.
using Dapr.Workflow;

namespace Shipping;

public sealed record Parcel(string OrderId, string Address);

public sealed class OrderWorkflow : Workflow<Parcel, string>
{
    public override Task<string> RunAsync(WorkflowContext context, Parcel parcel) =>
        context.CallChildWorkflowAsync<string>(nameof(ShipWorkflow), parcel,
            new ChildWorkflowTaskOptions(RetryPolicy: new WorkflowRetryPolicy(3, TimeSpan.FromSeconds(10))));
}

public sealed class ShipWorkflow : Workflow<Parcel, string>
{
    public override async Task<string> RunAsync(WorkflowContext context, Parcel parcel)
    {
        var labelKey = $"label-{context.InstanceId}";
        return await context.CallActivityAsync<string>(nameof(CreateLabelActivity), new LabelRequest(labelKey, parcel.Address)); // want: per-attempt-key
    }
}
