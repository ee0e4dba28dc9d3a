// Opens a support ticket with a random reference as its key column.
using Dapr.Workflow;
using Dapper;
using Microsoft.Data.SqlClient;

namespace Support;

public sealed record Ticket(string CustomerId, string Subject);

public sealed class OpenTicketActivity(SqlConnection conn) : WorkflowActivity<Ticket, int>
{
    private static readonly Random Rng = new();

    public override async Task<int> RunAsync(WorkflowActivityContext context, Ticket ticket)
    {
        var reference = Rng.Next(100000, 999999);
        await conn.ExecuteAsync( // want: key-generated-in-body, unkeyed-side-effect
            "INSERT INTO tickets (ticket_ref, customer_id, subject) VALUES (@Ref, @Customer, @Subject)",
            new { Ref = reference, Customer = ticket.CustomerId, Subject = ticket.Subject });
        return reference;
    }
}
