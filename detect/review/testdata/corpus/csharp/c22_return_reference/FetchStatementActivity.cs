// corpus: negative
// negative-for: large-payload, unkeyed-side-effect
// Stores the statement where it lives and returns its key.
using Dapr.Client;
using Dapr.Workflow;

namespace Statements;

public sealed record StatementRequest(string AccountId, string Month);

public sealed class FetchStatementActivity(HttpClient http, DaprClient dapr) : WorkflowActivity<StatementRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, StatementRequest request)
    {
        var body = await http.GetStringAsync($"https://bank.example/accounts/{request.AccountId}/statements/{request.Month}");
        var key = $"statement:{request.AccountId}:{request.Month}";
        await dapr.SaveStateAsync("documents", key, body);
        return key;
    }
}
