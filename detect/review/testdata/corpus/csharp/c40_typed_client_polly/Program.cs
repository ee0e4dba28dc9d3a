// A typed client with a Polly retry handler: the inventory client the
// activity calls retries each PUT itself.
using Dapr.Workflow;
using Inventory;
using Polly;

var builder = Host.CreateApplicationBuilder(args);
builder.Services
    .AddHttpClient<InventoryClient>(client => client.BaseAddress = new Uri("https://inventory.example/"))
    .AddTransientHttpErrorPolicy(policy => policy.WaitAndRetryAsync(3, attempt => TimeSpan.FromMilliseconds(200 * attempt)));
builder.Services.AddDaprWorkflow(options => options.RegisterActivity<HoldStockActivity>());
builder.Build().Run();
