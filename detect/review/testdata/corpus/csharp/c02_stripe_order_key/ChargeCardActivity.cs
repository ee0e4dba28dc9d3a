// corpus: negative
// negative-for: key-generated-in-body, unkeyed-side-effect
// Charges through Stripe.net keyed on the order id: every retry of the
// invocation sends the same key and Stripe returns the first charge.
using Dapr.Workflow;
using Stripe;

namespace Payments.Activities;

public sealed record ChargeRequest(string OrderId, long AmountCents, string Currency);

public sealed class ChargeCardActivity : WorkflowActivity<ChargeRequest, string>
{
    private readonly PaymentIntentService _intents;

    public ChargeCardActivity(PaymentIntentService intents) => _intents = intents;

    public override async Task<string> RunAsync(WorkflowActivityContext context, ChargeRequest request)
    {
        var intent = await _intents.CreateAsync(
            new PaymentIntentCreateOptions { Amount = request.AmountCents, Currency = request.Currency },
            new RequestOptions { IdempotencyKey = $"charge-{request.OrderId}" });
        return intent.Id;
    }
}
