// Builds a Polly v8 resilience pipeline with a retry inside the activity:
// retries the engine cannot see, multiplied by its own.
using Dapr.Workflow;
using Polly;
using Polly.Retry;

namespace Crm;

public sealed record Contact(string Id, string Email);

public sealed class SyncContactPipelineActivity(HttpClient http) : WorkflowActivity<Contact, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Contact contact)
    {
        var pipeline = new ResiliencePipelineBuilder() // want: retry-in-body
            .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 3 }) // want: retry-in-body
            .Build();
        await pipeline.ExecuteAsync(async token => await http.PutAsJsonAsync($"https://crm.example/contacts/{contact.Id}", contact, token));
        return true;
    }
}
