// A hand-written retry loop with Task.Delay around a PUT.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Warehouse;

public sealed record Pick(string OrderId, string[] Skus);

public sealed class NotifyWarehouseActivity(HttpClient http) : WorkflowActivity<Pick, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Pick pick)
    {
        for (var attempt = 1; attempt <= 5; attempt++) // want: retry-in-body
        {
            try
            {
                var response = await http.PutAsJsonAsync($"https://wms.example/picks/{pick.OrderId}", pick);
                response.EnsureSuccessStatusCode();
                return true;
            }
            catch (HttpRequestException) when (attempt < 5)
            {
                await Task.Delay(TimeSpan.FromSeconds(2 * attempt));
            }
        }
        return false;
    }
}
