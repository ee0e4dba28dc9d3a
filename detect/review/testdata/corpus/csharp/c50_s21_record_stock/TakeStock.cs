// Reads a stock record from the state store, builds the next record with
// the quantity minus the order's through its constructor, and saves it
// under the record's own id with no etag: a retry takes the stock down
// twice. The missing-record check leaves early on absence: it is not a
// check-then-act.
using Dapr.Client;
using Dapr.Workflow;

namespace Warehouse;

public sealed record StockRecord(string Sku, int Quantity);

public sealed record Line(string Sku, int Quantity);

public sealed class TakeStock(DaprClient dapr) : WorkflowActivity<Line, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Line line)
    {
        var record = await dapr.GetStateAsync<StockRecord>("stock", line.Sku);
        if (record == null)
        {
            return false;
        }
        var next = new StockRecord(record.Sku, record.Quantity - line.Quantity);
        await dapr.SaveStateAsync("stock", record.Sku, next); // want: unkeyed-side-effect
        return true;
    }
}
