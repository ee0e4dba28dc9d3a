namespace Booking.Activities;

public class HoldRoomActivity : QueueActivity<string>
{
    protected override string QueueName => "rooms";
}
