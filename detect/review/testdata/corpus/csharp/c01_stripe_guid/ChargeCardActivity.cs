// Charges through Stripe.net with a fresh Guid as the idempotency key:
// every retry sends a new key, so Stripe cannot refuse the repeat.
using Dapr.Workflow;
using Stripe;

namespace Payments.Activities;

public sealed record ChargeRequest(string OrderId, long AmountCents, string Currency);

public sealed class ChargeCardActivity(PaymentIntentService intents) : WorkflowActivity<ChargeRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, ChargeRequest request)
    {
        var options = new PaymentIntentCreateOptions { Amount = request.AmountCents, Currency = request.Currency, Confirm = true };
        var intent = await intents.CreateAsync(options, new RequestOptions
        {
            IdempotencyKey = Guid.NewGuid().ToString(), // want: key-generated-in-body
        });
        return intent.Id;
    }
}
