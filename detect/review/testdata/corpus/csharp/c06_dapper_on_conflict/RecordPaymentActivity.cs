// corpus: negative
// negative-for: unkeyed-side-effect, key-generated-in-body
// The same ledger write with a unique payment_id and ON CONFLICT DO
// NOTHING: the database refuses the second row.
using Dapper;
using Dapr.Workflow;
using Npgsql;

namespace Ledger;

public sealed record Entry(string PaymentId, string Account, decimal Amount);

public sealed class RecordPaymentActivity(NpgsqlDataSource db) : WorkflowActivity<Entry, int>
{
    private const string Sql = """
        INSERT INTO ledger (payment_id, account, amount)
        VALUES (@PaymentId, @Account, @Amount)
        ON CONFLICT (payment_id) DO NOTHING
        """;

    public override async Task<int> RunAsync(WorkflowActivityContext context, Entry entry)
    {
        await using var conn = await db.OpenConnectionAsync();
        return await conn.ExecuteAsync(Sql, new { entry.PaymentId, entry.Account, entry.Amount });
    }
}
