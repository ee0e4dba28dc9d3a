// corpus: negative
// negative-for: unkeyed-side-effect, check-then-act
// Records a dedupe key with an etag-guarded write before texting: a retry
// finds the record and does not send again.
using Dapr.Client;
using Dapr.Workflow;
using Twilio.Rest.Api.V2010.Account;

namespace Notifications;

public sealed record Sms(string NotificationId, string To, string Body);

public sealed class TextCustomerActivity(DaprClient dapr) : WorkflowActivity<Sms, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Sms sms)
    {
        var (sent, etag) = await dapr.GetStateAndETagAsync<string>("dedupe", $"sms:{sms.NotificationId}");
        if (sent is not null)
        {
            return false;
        }
        if (!await dapr.TrySaveStateAsync("dedupe", $"sms:{sms.NotificationId}", "sent", etag))
        {
            return false;
        }
        await MessageResource.CreateAsync(to: new Twilio.Types.PhoneNumber(sms.To), from: new Twilio.Types.PhoneNumber("+15550100"), body: sms.Body);
        return true;
    }
}
