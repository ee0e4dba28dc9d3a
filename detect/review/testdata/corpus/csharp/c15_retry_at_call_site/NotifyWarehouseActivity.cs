// corpus: negative
// negative-for: retry-in-body, shared-retry-policy, retried-rejection
// The same PUT with no loop: the retry policy is where the activity is
// called, in the workflow.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Warehouse;

public sealed record Pick(string OrderId, string[] Skus);

public sealed class NotifyWarehouseActivity(HttpClient http) : WorkflowActivity<Pick, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Pick pick)
    {
        var response = await http.PutAsJsonAsync($"https://wms.example/picks/{pick.OrderId}", pick);
        response.EnsureSuccessStatusCode();
        return true;
    }
}
