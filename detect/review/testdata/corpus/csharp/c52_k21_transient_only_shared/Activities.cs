// corpus: negative
// negative-for: shared-retry-policy, retried-rejection
// One WorkflowTaskOptions for a step that only logs and one that saves
// state: neither fails permanently, so one transient schedule suits both.
// (Issue 21: relabelled from a coffee-shop sample's order workflow.)
using Dapr.Client;
using Dapr.Workflow;
using Microsoft.Extensions.Logging;

namespace Cafe;

public sealed record Ticket(string Id, string Message);

public sealed class AnnounceActivity(ILogger<AnnounceActivity> log) : WorkflowActivity<Ticket, object?>
{
    public override Task<object?> RunAsync(WorkflowActivityContext context, Ticket ticket)
    {
        log.LogInformation("ticket {Id}: {Message}", ticket.Id, ticket.Message);
        return Task.FromResult<object?>(null);
    }
}

public sealed class FileTicketActivity(DaprClient dapr) : WorkflowActivity<Ticket, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Ticket ticket)
    {
        await dapr.SaveStateAsync("tickets", ticket.Id, ticket);
        return true;
    }
}

public sealed class TicketWorkflow : Workflow<Ticket, bool>
{
    public override async Task<bool> RunAsync(WorkflowContext context, Ticket ticket)
    {
        var options = new WorkflowTaskOptions
        {
            RetryPolicy = new WorkflowRetryPolicy(maxNumberOfAttempts: 10, firstRetryInterval: TimeSpan.FromMinutes(1)),
        };
        await context.CallActivityAsync(nameof(AnnounceActivity), ticket, options);
        return await context.CallActivityAsync<bool>(nameof(FileTicketActivity), ticket, options);
    }
}
