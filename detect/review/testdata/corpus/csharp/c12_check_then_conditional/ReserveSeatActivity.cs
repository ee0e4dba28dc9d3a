// corpus: negative
// negative-for: check-then-act, unkeyed-side-effect
// Reads first to skip the round trip, but the write itself refuses the
// duplicate: Dapr's first-write concurrency on a key from the input.
using Dapr.Client;
using Dapr.Workflow;

namespace Events;

public sealed record Seat(string BookingId, string SeatId);

public sealed class ReserveSeatActivity(DaprClient dapr) : WorkflowActivity<Seat, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Seat seat)
    {
        var held = await dapr.GetStateAsync<Seat>("seats", seat.SeatId);
        if (held is not null)
        {
            return held.BookingId == seat.BookingId;
        }
        await dapr.SaveStateAsync("seats", seat.SeatId, seat, new StateOptions { Concurrency = ConcurrencyMode.FirstWrite });
        return true;
    }
}
