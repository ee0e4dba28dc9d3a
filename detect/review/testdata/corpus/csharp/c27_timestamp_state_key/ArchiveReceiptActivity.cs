// Saves the receipt under a key made from the clock: each retry writes a
// new document instead of overwriting the first.
using Dapr.Client;
using Dapr.Workflow;

namespace Receipts;

public sealed record Receipt(string OrderId, string Pdf);

public sealed class ArchiveReceiptActivity(DaprClient dapr) : WorkflowActivity<Receipt, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, Receipt receipt)
    {
        var key = $"receipt-{receipt.OrderId}-{DateTime.UtcNow.Ticks}";
        await dapr.SaveStateAsync("archive", key, receipt); // want: key-generated-in-body
        return key;
    }
}
