// A POST by service invocation to a handler of this tree that only reads
// is a read. A POST to an app this tree does not hold is code twice
// cannot see. An email through an output binding, with no dedupe record,
// is sent again by a second run.
using Dapr.Client;
using Dapr.Workflow;

public sealed class PriceCart(DaprClient dapr) : WorkflowActivity<Cart, Price>
{
    public override async Task<Price> RunAsync(WorkflowActivityContext context, Cart cart)
    {
        return await dapr.InvokeMethodAsync<Cart, Price>(HttpMethod.Post, "pricing", "calculate", cart);
    }
}

public sealed class ChargeCart(DaprClient dapr) : WorkflowActivity<Cart, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, Cart cart)
    {
        return await dapr.InvokeMethodAsync<Cart, string>("billing", "charge", cart);
    }
}

public sealed class MailReceipt(DaprClient dapr) : WorkflowActivity<Cart, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Cart cart)
    {
        await dapr.InvokeBindingAsync("receipt-email", "create", $"Your cart {cart.Id}"); // want: unkeyed-side-effect
        return true;
    }
}
