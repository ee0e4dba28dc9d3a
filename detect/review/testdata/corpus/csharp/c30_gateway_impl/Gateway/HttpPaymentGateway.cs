using System.Net.Http.Json;

namespace Payments.Gateway;

public sealed class HttpPaymentGateway(HttpClient http) : IPaymentGateway
{
    public async Task<string> ChargeAsync(string orderId, long amountCents)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "https://pay.example/v1/charges")
        {
            Content = JsonContent.Create(new { orderId, amountCents }),
        };
        request.Headers.Add("Idempotency-Key", Guid.NewGuid().ToString("N")); // want: key-generated-in-body
        using var response = await http.SendAsync(request);
        response.EnsureSuccessStatusCode();
        return orderId;
    }
}
