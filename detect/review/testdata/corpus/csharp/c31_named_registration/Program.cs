// An activity registered under a name of its own and called by that name
// with a retry policy; it throws when the order does not exist, a
// rejection no retry can fix.
using Dapr.Workflow;
using Returns;

var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddDaprWorkflow(options =>
{
    options.RegisterWorkflow<ReturnWorkflow>("return-order");
    options.RegisterActivity<ValidateReturn>("validate-return");
});
builder.Build().Run();
