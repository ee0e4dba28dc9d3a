// corpus: negative
// negative-for: unkeyed-side-effect, check-then-act
// A DELETE by id and a PUT of the whole document to a fixed key: a second
// run changes nothing (the hazard table: already idempotent).
using System.Net.Http.Json;
using Dapper;
using Dapr.Workflow;
using Npgsql;

namespace Reservations;

public sealed record Cancel(string ReservationId, string Reason);

public sealed class CancelReservationActivity(NpgsqlDataSource db, HttpClient http) : WorkflowActivity<Cancel, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Cancel cancel)
    {
        await using var conn = await db.OpenConnectionAsync();
        await conn.ExecuteAsync("DELETE FROM holds WHERE reservation_id = @ReservationId", new { cancel.ReservationId });
        await http.PutAsJsonAsync($"https://hotels.example/reservations/{cancel.ReservationId}/status", new { status = "cancelled", cancel.Reason });
        await http.DeleteAsync($"https://hotels.example/reservations/{cancel.ReservationId}");
        return true;
    }
}
