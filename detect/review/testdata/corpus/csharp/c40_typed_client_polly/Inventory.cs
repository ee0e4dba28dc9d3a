using System.Net.Http.Json;
using Dapr.Workflow;

namespace Inventory;

public sealed record Hold(string OrderId, string Sku, int Quantity);

public sealed class InventoryClient(HttpClient http)
{
    public async Task HoldAsync(Hold hold)
    {
        var response = await http.PutAsJsonAsync($"holds/{hold.OrderId}/{hold.Sku}", hold); // want: retry-in-body
        response.EnsureSuccessStatusCode();
    }
}

public sealed class HoldStockActivity(InventoryClient inventory) : WorkflowActivity<Hold, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Hold hold)
    {
        await inventory.HoldAsync(hold);
        return true;
    }
}
