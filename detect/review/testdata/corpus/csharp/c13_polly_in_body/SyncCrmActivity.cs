// Wraps the CRM call in a Polly retry policy inside the activity: retries
// the engine cannot see, multiplied by its own.
using Dapr.Workflow;
using Polly;

namespace Crm;

public sealed record Contact(string Id, string Email);

public sealed class SyncContactActivity(HttpClient http) : WorkflowActivity<Contact, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Contact contact)
    {
        var retry = Policy
            .Handle<HttpRequestException>()
            .WaitAndRetryAsync(3, attempt => TimeSpan.FromSeconds(attempt)); // want: retry-in-body
        await retry.ExecuteAsync(() => http.PutAsJsonAsync($"https://crm.example/contacts/{contact.Id}", contact));
        return true;
    }
}
