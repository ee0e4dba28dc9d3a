// corpus: negative
// negative-for: unkeyed-side-effect, check-then-act
// Inserts the shipment keyed on the order id and treats the unique
// constraint's violation as "already recorded": EF Core's insert-ignore.
using Dapr.Workflow;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace Fulfilment;

public sealed class Shipment
{
    public string OrderId { get; set; } = "";
    public string Carrier { get; set; } = "";
}

public sealed class FulfilmentDb(DbContextOptions<FulfilmentDb> options) : DbContext(options)
{
    public DbSet<Shipment> Shipments => Set<Shipment>();
}

public sealed record ShipmentRecord(string OrderId, string Carrier);

public sealed class RecordShipmentActivity(FulfilmentDb db) : WorkflowActivity<ShipmentRecord, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, ShipmentRecord record)
    {
        db.Shipments.Add(new Shipment { OrderId = record.OrderId, Carrier = record.Carrier });
        try
        {
            await db.SaveChangesAsync();
            return true;
        }
        catch (DbUpdateException ex) when (ex.InnerException is PostgresException { SqlState: PostgresErrorCodes.UniqueViolation })
        {
            return false; // recorded by an earlier attempt
        }
    }
}
