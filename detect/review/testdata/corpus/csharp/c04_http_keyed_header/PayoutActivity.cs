// corpus: negative
// negative-for: key-generated-in-body, unkeyed-side-effect, per-attempt-key
// Posts a payout with an Idempotency-Key header made from the payout id in
// the input: the provider refuses the repeat.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Payouts;

public sealed record Payout(string PayoutId, string Account, long AmountCents);

public sealed class PayoutActivity : WorkflowActivity<Payout, string>
{
    private readonly HttpClient _http;

    public PayoutActivity(HttpClient http) => _http = http;

    public override async Task<string> RunAsync(WorkflowActivityContext context, Payout payout)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "https://api.bank.example/payouts")
        {
            Content = JsonContent.Create(payout),
        };
        request.Headers.TryAddWithoutValidation("Idempotency-Key", "payout-" + payout.PayoutId);
        using var response = await _http.SendAsync(request);
        response.EnsureSuccessStatusCode();
        return payout.PayoutId;
    }
}
