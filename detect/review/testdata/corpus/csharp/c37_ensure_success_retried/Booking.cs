// EnsureSuccessStatusCode throws the same HttpRequestException for a 409
// "room no longer available" as for a 503, and the workflow retries the
// activity: the rejection is retried until the attempts run out.
using System.Net.Http.Json;
using Dapr.Workflow;

namespace Travel;

public sealed record RoomRequest(string BookingId, string HotelId, string Room);

public sealed class BookRoomActivity(HttpClient http) : WorkflowActivity<RoomRequest, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, RoomRequest request)
    {
        using var message = new HttpRequestMessage(HttpMethod.Put, $"https://hotels.example/bookings/{request.BookingId}")
        {
            Content = JsonContent.Create(request),
        };
        using var response = await http.SendAsync(message);
        response.EnsureSuccessStatusCode();
        return request.BookingId;
    }
}

public sealed class TravelWorkflow : Workflow<RoomRequest, string>
{
    public override async Task<string> RunAsync(WorkflowContext context, RoomRequest request)
    {
        var options = new WorkflowTaskOptions(new WorkflowRetryPolicy(5, TimeSpan.FromSeconds(5), 2));
        return await context.CallActivityAsync<string>(nameof(BookRoomActivity), request, options); // want: retried-rejection
    }
}
