// Reads an item's stock from the state store, subtracts the order's
// quantity and saves it back to the same key: a retry subtracts twice.
// (The shape of dapr/dotnet-sdk v1.18.5's
// examples/Workflow/WorkflowConsoleApp/Activities/UpdateInventoryActivity.cs.)
using Dapr.Client;
using Dapr.Workflow;

namespace Inventory;

public sealed record InventoryItem(string Name, double PerItemCost, int Quantity);

public sealed record PaymentRequest(string RequestId, string ItemName, int Amount);

public sealed class UpdateInventoryActivity : WorkflowActivity<PaymentRequest, object?>
{
    static readonly string storeName = "statestore";
    readonly DaprClient client;

    public UpdateInventoryActivity(DaprClient client) => this.client = client;

    public override async Task<object?> RunAsync(WorkflowActivityContext context, PaymentRequest req)
    {
        InventoryItem item = await client.GetStateAsync<InventoryItem>(storeName, req.ItemName.ToLowerInvariant());
        int newQuantity = item.Quantity - req.Amount;
        if (newQuantity < 0)
        {
            return null;
        }
        await client.SaveStateAsync( // want: unkeyed-side-effect
            storeName,
            req.ItemName.ToLowerInvariant(),
            new InventoryItem(Name: req.ItemName, PerItemCost: item.PerItemCost, Quantity: newQuantity));
        return null;
    }
}
