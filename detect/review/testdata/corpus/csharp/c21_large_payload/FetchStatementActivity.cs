// Returns the whole statement document as the activity's output: it is
// stored in the workflow history and read back on every replay.
using Dapr.Workflow;

namespace Statements;

public sealed record StatementRequest(string AccountId, string Month);

public sealed class FetchStatementActivity(HttpClient http) : WorkflowActivity<StatementRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, StatementRequest request)
    {
        var response = await http.GetAsync($"https://bank.example/accounts/{request.AccountId}/statements/{request.Month}");
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsStringAsync(); // want: large-payload
    }
}
