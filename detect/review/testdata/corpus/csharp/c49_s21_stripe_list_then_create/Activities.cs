// Stripe.net resources beyond payments. A product is found by listing
// and matching in memory, else created: two attempts can both miss and
// both create (list-then-create), and the create carries no
// RequestOptions.IdempotencyKey: a second product. A price created with
// the input's lookup key is refused the second time. A meter event's
// Identifier is Stripe's dedupe key for usage; a new Guid per attempt
// bills the usage again.
using Dapr.Workflow;
using OpenAI.Chat;
using Stripe;
using Stripe.Billing;

namespace Catalog;

public sealed record ProductInput(string Name, string LookupKey, string CustomerId);

public sealed class EnsureProduct : WorkflowActivity<ProductInput, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, ProductInput input)
    {
        Console.WriteLine($"ensuring {input.Name}");
        var products = new ProductService();
        string id = await FindProduct(products, input.Name);
        if (id == string.Empty)
        {
            var made = await products.CreateAsync(new ProductCreateOptions { Name = input.Name }); // want: unkeyed-side-effect
            id = made.Id;
        }
        return id;
    }

    static async Task<string> FindProduct(ProductService products, string name)
    {
        var page = await products.ListAsync(new ProductListOptions { Limit = 10 }); // want: check-then-act
        var hit = page.FirstOrDefault(p => p.Name == name);
        return hit == null ? string.Empty : hit.Id;
    }
}

public sealed class EnsurePrice : WorkflowActivity<ProductInput, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, ProductInput input)
    {
        var prices = new PriceService();
        PriceCreateOptions options = PriceOptions(input);
        var price = await prices.CreateAsync(options);
        return price.Id;
    }

    static PriceCreateOptions PriceOptions(ProductInput input)
    {
        return new PriceCreateOptions { LookupKey = input.LookupKey, UnitAmount = 500, Currency = "eur" };
    }
}

public sealed class RecordUsage(ChatClient chat) : WorkflowActivity<ProductInput, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, ProductInput input)
    {
        var answer = await chat.CompleteChatAsync("count the tokens");
        var usageId = Guid.NewGuid().ToString("N");
        var options = new MeterEventCreateOptions
        {
            EventName = "tokens",
            Identifier = usageId, // want: key-generated-in-body
        };
        var events = new MeterEventService();
        await events.CreateAsync(options);
        return answer != null;
    }
}
