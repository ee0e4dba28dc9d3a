using Dapr.Client;
using Dapr.Workflow;

namespace Shop;

public sealed class CardDeclinedException(string message) : Exception(message);

public sealed class ReserveInventoryActivity(DaprClient dapr) : WorkflowActivity<Order, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
        await dapr.SaveStateAsync("reservations", order.Id, new { order.Sku, order.Quantity });
        return true;
    }
}

public sealed class ReleaseInventoryActivity(DaprClient dapr) : WorkflowActivity<Order, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
        await dapr.DeleteStateAsync("reservations", order.Id);
        return true;
    }
}

public sealed class ChargeCardActivity(IPaymentGateway gateway) : WorkflowActivity<Order, ChargeOutcome>
{
    public override async Task<ChargeOutcome> RunAsync(WorkflowActivityContext context, Order order)
    {
        var result = await gateway.AuthorizeAsync(order.Id, order.Total);
        if (!result.Approved)
        {
            throw new CardDeclinedException($"card declined for order {order.Id}");
        }
        return new ChargeOutcome(true, null);
    }
}

public sealed record Authorization(bool Approved, string Reason, string AuthorizationId);

public interface IPaymentGateway
{
    Task<Authorization> AuthorizeAsync(string orderId, decimal amount);
}
