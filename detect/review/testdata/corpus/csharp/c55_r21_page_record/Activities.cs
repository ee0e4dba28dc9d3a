// An activity that returns a page of records a service sent back, held in
// a record's array or List<T> property, stores every element in the
// history: a large payload, as a bare list would be. A record with a list
// that the activity computes from its input alone (nothing fetched) is
// already as large as the input the history holds. A lambda's value
// (rows.Count(r => r.Quantity > 0)) is the lambda's, not the activity's
// output.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Billing;

public record UsageRow(string Meter, decimal Quantity, string Unit);

public record UsagePage
{
    public required UsageRow[] Rows { get; set; }
    public string? Next { get; init; }
}

public record InvoiceDraft
{
    public List<UsageRow> Lines { get; init; } = [];
    public decimal Total { get; init; }
}

public record UsageQuery(string Account, string? Cursor);

public sealed class UsageClient(HttpClient http)
{
    public async Task<List<UsageRow>> PageAsync(UsageQuery q) =>
        await http.GetFromJsonAsync<List<UsageRow>>($"https://usage.example/accounts/{q.Account}/rows?cursor={q.Cursor}") ?? [];
}

public sealed class FetchUsagePage(UsageClient usage) : WorkflowActivity<UsageQuery, UsagePage>
{
    public override async Task<UsagePage> RunAsync(WorkflowActivityContext context, UsageQuery q)
    {
        var rows = await usage.PageAsync(q);
        return new UsagePage { Rows = rows.ToArray(), Next = rows.Count == 100 ? rows[^1].Meter : null }; // want: large-payload
    }
}

public sealed class DraftInvoice : WorkflowActivity<UsagePage, InvoiceDraft>
{
    public override Task<InvoiceDraft> RunAsync(WorkflowActivityContext context, UsagePage page)
    {
        var lines = page.Rows.Where(r => r.Quantity > 0).ToList();
        return Task.FromResult(new InvoiceDraft { Lines = lines, Total = lines.Sum(l => l.Quantity) });
    }
}

public sealed class CountBillable(UsageClient usage) : WorkflowActivity<UsageQuery, UsagePage>
{
    public override async Task<UsagePage> RunAsync(WorkflowActivityContext context, UsageQuery q)
    {
        var rows = await usage.PageAsync(q);
        var billable = rows.Count(r => r.Quantity > 0);
        if (billable == 0)
        {
            return new UsagePage { Rows = [], Next = null };
        }
        return new UsagePage { Rows = [], Next = q.Cursor };
    }
}
