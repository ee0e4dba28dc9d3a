namespace Booking.Activities;

public class HoldSeatActivity : QueueActivity<string>
{
    protected override string QueueName => "seats";
}
