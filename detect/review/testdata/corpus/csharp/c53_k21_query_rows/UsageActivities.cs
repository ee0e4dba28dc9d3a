// An activity returns the rows of a usage query, one per group: the
// output grows with the data and every row is stored in the history.
// Another returns only the ids of what is missing: references, what the
// seed asks for. (Issue 21: the shape of a cost-reporting service's
// usage activities.)
using Dapr.Workflow;

namespace Costs;

public sealed record UsageRequest(string ResourceGroup, DateTime From, DateTime To);

public sealed record UsageRow(string Group, string Meter, decimal Quantity, decimal Cost);

public interface IUsageQueries
{
    Task<IReadOnlyList<UsageRow>> QueryUsageAsync(string resourceGroup, DateTime from, DateTime to);
    Task<IReadOnlyList<string>> MissingIdsAsync(string resourceGroup);
}

public sealed class ObtainUsageActivity(IUsageQueries queries) : WorkflowActivity<UsageRequest, IEnumerable<UsageRow>>
{
    public override async Task<IEnumerable<UsageRow>> RunAsync(WorkflowActivityContext context, UsageRequest request)
    {
        var rows = await queries.QueryUsageAsync(request.ResourceGroup, request.From, request.To);
        return rows; // want: large-payload
    }
}

public sealed class FindGapsActivity(IUsageQueries queries) : WorkflowActivity<UsageRequest, IEnumerable<string>>
{
    public override async Task<IEnumerable<string>> RunAsync(WorkflowActivityContext context, UsageRequest request)
    {
        return await queries.MissingIdsAsync(request.ResourceGroup);
    }
}
