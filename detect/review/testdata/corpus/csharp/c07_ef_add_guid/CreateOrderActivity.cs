// Creates an order row with EF Core, its key a fresh Guid: a retry adds a
// second order with a new id.
using Dapr.Workflow;
using Microsoft.EntityFrameworkCore;

namespace Shop.Orders;

public sealed class Order
{
    public Guid Id { get; set; }
    public string CustomerId { get; set; } = "";
    public decimal Total { get; set; }
}

public sealed class ShopDb(DbContextOptions<ShopDb> options) : DbContext(options)
{
    public DbSet<Order> Orders => Set<Order>();
}

public sealed record NewOrder(string CustomerId, decimal Total);

public sealed class CreateOrderActivity(ShopDb db) : WorkflowActivity<NewOrder, Guid>
{
    public override async Task<Guid> RunAsync(WorkflowActivityContext context, NewOrder input)
    {
        var order = new Order
        {
            Id = Guid.NewGuid(), // want: key-generated-in-body
            CustomerId = input.CustomerId,
            Total = input.Total,
        };
        db.Orders.Add(order); // want: unkeyed-side-effect
        await db.SaveChangesAsync();
        return order.Id;
    }
}
