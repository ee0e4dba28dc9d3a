// Records a ledger entry with Dapper: a plain INSERT writes a second row
// when the activity runs twice.
using Dapper;
using Dapr.Workflow;
using Npgsql;

namespace Ledger;

public sealed record Entry(string PaymentId, string Account, decimal Amount);

public sealed class RecordPaymentActivity(NpgsqlDataSource db) : WorkflowActivity<Entry, int>
{
    public override async Task<int> RunAsync(WorkflowActivityContext context, Entry entry)
    {
        await using var conn = await db.OpenConnectionAsync();
        return await conn.ExecuteAsync( // want: unkeyed-side-effect
            "INSERT INTO ledger (payment_id, account, amount) VALUES (@PaymentId, @Account, @Amount)",
            new { entry.PaymentId, entry.Account, entry.Amount });
    }
}
