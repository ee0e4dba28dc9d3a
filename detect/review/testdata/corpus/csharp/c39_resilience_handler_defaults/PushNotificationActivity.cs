using System.Net.Http.Json;
using Dapr.Workflow;

namespace Notifications;

public sealed record Push(string NotificationId, string DeviceToken, string Text);

public sealed class PushNotificationActivity(IHttpClientFactory clients) : WorkflowActivity<Push, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Push push)
    {
        var http = clients.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Post, "https://push.example/v1/send") // want: retry-in-body
        {
            Content = JsonContent.Create(push),
        };
        request.Headers.Add("Idempotency-Key", push.NotificationId);
        using var response = await http.SendAsync(request);
        return response.IsSuccessStatusCode;
    }
}
