// corpus: negative
// negative-for: retry-in-body, shared-retry-policy, retried-rejection
// The same PUT with no loop: the retry policy is where the activity is
// called, in the workflow, and a 4xx comes back as a value, so only what
// a retry can fix is raised.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Warehouse;

public sealed record Pick(string OrderId, string[] Skus);

public sealed class NotifyWarehouseActivity(HttpClient http) : WorkflowActivity<Pick, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Pick pick)
    {
        var response = await http.PutAsJsonAsync($"https://wms.example/picks/{pick.OrderId}", pick);
        if ((int)response.StatusCode is >= 400 and < 500 and not 408 and not 429)
        {
            return false; // a rejection: the workflow decides, no retry
        }
        response.EnsureSuccessStatusCode();
        return true;
    }
}
