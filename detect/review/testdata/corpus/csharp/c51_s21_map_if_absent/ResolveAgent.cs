// Looks up the agent id mapped to a tenant; when none is stored, mints a
// new id and saves it with no etag or first-write concurrency: two
// overlapping attempts both find nothing and each saves its own id.
using Dapr.Client;
using Dapr.Workflow;

namespace Agents;

public sealed record Tenant(string Id);

public sealed class ResolveAgent(DaprClient dapr) : WorkflowActivity<Tenant, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, Tenant tenant)
    {
        var key = $"agent-{tenant.Id}";
        var agentId = await dapr.GetStateAsync<string>("agents", key); // want: check-then-act
        if (string.IsNullOrWhiteSpace(agentId))
        {
            agentId = Guid.NewGuid().ToString("N");
            await dapr.SaveStateAsync("agents", key, agentId);
        }
        return agentId;
    }
}
