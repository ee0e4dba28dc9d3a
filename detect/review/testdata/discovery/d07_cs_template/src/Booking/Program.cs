using Dapr.Workflow;
using Booking.Activities;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDaprWorkflow(options =>
{
    options.RegisterActivity<HoldSeatActivity>();
    options.RegisterActivity<HoldRoomActivity>();
});
