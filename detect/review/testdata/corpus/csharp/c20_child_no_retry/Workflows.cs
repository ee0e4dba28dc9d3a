// corpus: negative
// negative-for: per-attempt-key
// The same child, called with no retry policy: its instance id is stable
// for the one call.
using Dapr.Workflow;

namespace Shipping;

public sealed record Parcel(string OrderId, string Address);

public sealed class OrderWorkflow : Workflow<Parcel, string>
{
    public override Task<string> RunAsync(WorkflowContext context, Parcel parcel) =>
        context.CallChildWorkflowAsync<string>(nameof(ShipWorkflow), parcel, new ChildWorkflowTaskOptions(InstanceId: $"ship-{parcel.OrderId}"));
}

public sealed class ShipWorkflow : Workflow<Parcel, string>
{
    public override async Task<string> RunAsync(WorkflowContext context, Parcel parcel)
    {
        var labelKey = $"label-{context.InstanceId}";
        return await context.CallActivityAsync<string>(nameof(CreateLabelActivity), new LabelRequest(labelKey, parcel.Address));
    }
}
