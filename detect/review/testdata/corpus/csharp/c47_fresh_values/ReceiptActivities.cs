// Receipts saved under keys made from values that are new on every run: a
// ULID, a MassTransit NewId, a cryptographic random number, the clock in
// four spellings. Each retry saves a new receipt instead of overwriting.
using System.Diagnostics;
using System.Security.Cryptography;
using Dapr.Client;
using Dapr.Workflow;
using MassTransit;

namespace Receipts;

public sealed record Receipt(string OrderId, decimal Total);

public sealed class ReceiptUlidActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", Ulid.NewUlid().ToString(), r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptNewIdActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", NewId.NextGuid().ToString(), r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptRandomActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        var suffix = RandomNumberGenerator.GetInt32(1_000_000);
        await dapr.SaveStateAsync("receipts", $"{r.OrderId}-{suffix}", r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptOffsetActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", $"{r.OrderId}-{DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()}", r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptTicksActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", $"{r.OrderId}-{Environment.TickCount64}", r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptTimeProviderActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", $"{r.OrderId}-{TimeProvider.System.GetUtcNow():O}", r); // want: key-generated-in-body
        return true;
    }
}

public sealed class ReceiptStopwatchActivity(DaprClient dapr) : WorkflowActivity<Receipt, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Receipt r)
    {
        await dapr.SaveStateAsync("receipts", $"{r.OrderId}-{Stopwatch.GetTimestamp()}", r); // want: key-generated-in-body
        return true;
    }
}
