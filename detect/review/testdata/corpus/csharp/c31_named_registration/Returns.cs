using Dapr.Client;
using Dapr.Workflow;

namespace Returns;

public sealed record ReturnRequest(string OrderId, string Sku);

public sealed class ReturnWorkflow : Workflow<ReturnRequest, bool>
{
    public override async Task<bool> RunAsync(WorkflowContext context, ReturnRequest request)
    {
        var retry = new WorkflowTaskOptions(new WorkflowRetryPolicy(4, TimeSpan.FromSeconds(3)));
        return await context.CallActivityAsync<bool>("validate-return", request, retry); // want: retried-rejection
    }
}

public sealed class ValidateReturn(DaprClient dapr) : WorkflowActivity<ReturnRequest, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, ReturnRequest request)
    {
        var order = await dapr.GetStateAsync<ReturnRequest>("orders", request.OrderId)
            ?? throw new KeyNotFoundException($"order {request.OrderId} not found");
        return order.Sku == request.Sku;
    }
}
