// Looks for an existing shipment and returns it, else creates one at the
// carrier: two attempts can both find nothing and both create.
using Dapr.Workflow;
using Microsoft.EntityFrameworkCore;

namespace Fulfilment;

public sealed class Shipment
{
    public string OrderId { get; set; } = "";
    public string TrackingId { get; set; } = "";
}

public sealed class FulfilmentDb(DbContextOptions<FulfilmentDb> options) : DbContext(options)
{
    public DbSet<Shipment> Shipments => Set<Shipment>();
}

public interface ICarrier
{
    Task<string> CreateShipmentAsync(string orderId, string address);
}

public sealed record ShipRequest(string OrderId, string Address);

public sealed class CreateShipmentActivity(FulfilmentDb db, ICarrier carrier) : WorkflowActivity<ShipRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, ShipRequest request)
    {
        var existing = await db.Shipments.FirstOrDefaultAsync(s => s.OrderId == request.OrderId); // want: check-then-act
        if (existing is not null)
        {
            return existing.TrackingId;
        }
        return await carrier.CreateShipmentAsync(request.OrderId, request.Address);
    }
}
