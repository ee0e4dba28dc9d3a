// The app's service defaults (the .NET Aspire template's shape) make every
// HttpClient retry: the activity's POST is retried inside the body, where
// the history cannot see it, on top of the engine's retries.
using Dapr.Workflow;
using Notifications;

var builder = WebApplication.CreateBuilder(args);
builder.Services.ConfigureHttpClientDefaults(http =>
{
    http.AddStandardResilienceHandler();
});
builder.Services.AddDaprWorkflow(options => options.RegisterActivity<PushNotificationActivity>());
builder.Build().Run();
