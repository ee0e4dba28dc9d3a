using System.Net.Http.Json;
using Dapr.Workflow;

namespace Shipping;

public sealed record LabelRequest(string Key, string Address);

public sealed class CreateLabelActivity(HttpClient http) : WorkflowActivity<LabelRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, LabelRequest request)
    {
        using var message = new HttpRequestMessage(HttpMethod.Post, "https://labels.example/v1/labels") { Content = JsonContent.Create(request) };
        message.Headers.Add("Idempotency-Key", request.Key);
        using var response = await http.SendAsync(message);
        response.EnsureSuccessStatusCode();
        return request.Key;
    }
}
