using Billing;
using Dapr.Workflow;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<UsageClient>();
builder.Services.AddDaprWorkflow(options =>
{
    options.RegisterActivity<FetchUsagePage>();
    options.RegisterActivity<DraftInvoice>();
    options.RegisterActivity<CountBillable>();
});
builder.Build().Run();
