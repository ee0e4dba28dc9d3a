// The activity calls an injected gateway; its one implementation in the
// tree posts the charge with a key made from a fresh Guid.
using Dapr.Workflow;

namespace Payments;

public sealed record Charge(string OrderId, long AmountCents);

public sealed class ChargeCardActivity(IPaymentGateway gateway) : WorkflowActivity<Charge, string>
{
    public override Task<string> RunAsync(WorkflowActivityContext context, Charge charge) =>
        gateway.ChargeAsync(charge.OrderId, charge.AmountCents);
}
