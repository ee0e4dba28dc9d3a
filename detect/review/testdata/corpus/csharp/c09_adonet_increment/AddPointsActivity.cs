// Adds loyalty points with ADO.NET: balance = balance + @points counts
// twice when the activity runs twice.
using Dapr.Workflow;
using Microsoft.Data.SqlClient;

namespace Loyalty;

public sealed record Points(string MemberId, int Amount);

public sealed class AddPointsActivity(SqlConnection conn) : WorkflowActivity<Points, int>
{
    public override async Task<int> RunAsync(WorkflowActivityContext context, Points points)
    {
        await using var cmd = conn.CreateCommand();
        cmd.CommandText = "UPDATE members SET points = points + @points WHERE member_id = @member";
        cmd.Parameters.AddWithValue("@points", points.Amount);
        cmd.Parameters.AddWithValue("@member", points.MemberId);
        await conn.OpenAsync();
        return await cmd.ExecuteNonQueryAsync(); // want: unkeyed-side-effect
    }
}
