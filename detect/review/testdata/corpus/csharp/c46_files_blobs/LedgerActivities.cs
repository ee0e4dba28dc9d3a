// A ledger kept in a local file and in an append blob: each second run
// appends the line again.
using Azure.Storage.Blobs.Specialized;
using Dapr.Workflow;

namespace Ledger;

public sealed record Entry(string OrderId, decimal Amount);

public sealed class AppendLocalLedgerActivity : WorkflowActivity<Entry, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Entry e)
    {
        await using var writer = new StreamWriter("/var/lib/ledger.csv", append: true); // want: unkeyed-side-effect
        await writer.WriteLineAsync($"{e.OrderId},{e.Amount}");
        return true;
    }
}

public sealed class AppendBlobLedgerActivity(AppendBlobClient blob) : WorkflowActivity<Entry, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Entry e)
    {
        using var line = new MemoryStream(System.Text.Encoding.UTF8.GetBytes($"{e.OrderId},{e.Amount}\n"));
        await blob.AppendBlockAsync(line); // want: unkeyed-side-effect
        return true;
    }
}

public interface ILedgerBlob
{
    Task AppendAsync(string line);
}

public sealed class AppendSharedLedgerActivity(ILedgerBlob ledgerBlob) : WorkflowActivity<Entry, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Entry e)
    {
        await ledgerBlob.AppendAsync($"{e.OrderId},{e.Amount}"); // want: unkeyed-side-effect
        return true;
    }
}
