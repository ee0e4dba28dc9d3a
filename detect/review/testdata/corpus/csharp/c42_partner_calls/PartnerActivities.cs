// Calls to partners: a RestSharp POST with no idempotency key repeats; a
// partner's catalogue read as a whole document is returned into the
// history; a receipt sent with System.Net.Mail goes out twice.
using System.Net.Http.Json;
using System.Net.Mail;
using Dapr.Workflow;
using RestSharp;

namespace Partners;

public sealed record Order(string Id, string Email, decimal Total);

public sealed record Catalogue(Dictionary<string, object> Items);

public sealed class NotifyPartnerActivity(RestClient rest) : WorkflowActivity<Order, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
        var request = new RestRequest("orders", Method.Post).AddJsonBody(order); // want: unkeyed-side-effect
        var response = await rest.ExecuteAsync(request);
        return response.IsSuccessful;
    }
}

public sealed class FetchCatalogueActivity(HttpClient http) : WorkflowActivity<string, Catalogue?>
{
    public override async Task<Catalogue?> RunAsync(WorkflowActivityContext context, string partner)
    {
        var response = await http.GetAsync($"https://{partner}/catalogue");
        return await response.Content.ReadFromJsonAsync<Catalogue>(); // want: large-payload
    }
}

public sealed class MailReceiptActivity(SmtpClient smtp) : WorkflowActivity<Order, bool>
{
    public override Task<bool> RunAsync(WorkflowActivityContext context, Order order)
    {
        smtp.Send("shop@example.com", order.Email, $"Receipt {order.Id}", $"Total {order.Total}"); // want: unkeyed-side-effect
        return Task.FromResult(true);
    }
}
