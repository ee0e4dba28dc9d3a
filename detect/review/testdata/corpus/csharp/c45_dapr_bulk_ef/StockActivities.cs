// Stock kept with Dapr state and EF Core: a state entry saved with its
// etag refuses a second write, a bulk copy of whole values is idempotent,
// and ExecuteUpdate adding to the count counts twice.
using Dapr;
using Dapr.Client;
using Dapr.Workflow;
using Microsoft.EntityFrameworkCore;

namespace Stock;

public sealed record Item(string Sku, int Quantity);

public sealed record Reservation(string Sku, int Quantity);

public sealed class ReserveActivity(DaprClient dapr) : WorkflowActivity<Reservation, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Reservation r)
    {
        StateEntry<Item> entry = await dapr.GetStateEntryAsync<Item>("stock", r.Sku);
        entry.Value = entry.Value with { Quantity = r.Quantity };
        return await entry.TrySaveAsync();
    }
}

public sealed class ArchiveStockActivity(DaprClient dapr) : WorkflowActivity<string[], int>
{
    public override async Task<int> RunAsync(WorkflowActivityContext context, string[] skus)
    {
        var items = await dapr.GetBulkStateAsync("stock", skus, parallelism: 4);
        await dapr.SaveBulkStateAsync("stock-archive", items.Select(i => new SaveStateItem<string>(i.Key, i.Value, i.ETag)).ToList());
        return items.Count;
    }
}

public sealed class StockDbContext : DbContext
{
    public DbSet<Item> Items => Set<Item>();
}

public sealed class RestockActivity(StockDbContext db) : WorkflowActivity<Reservation, int>
{
    public override async Task<int> RunAsync(WorkflowActivityContext context, Reservation r)
    {
        return await db.Items.Where(i => i.Sku == r.Sku)
            .ExecuteUpdateAsync(s => s.SetProperty(i => i.Quantity, i => i.Quantity + r.Quantity)); // want: unkeyed-side-effect
    }
}
