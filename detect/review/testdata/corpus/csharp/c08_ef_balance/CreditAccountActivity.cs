// Adds to a balance through EF Core's change tracking: a retry credits
// the account twice.
using Dapr.Workflow;
using Microsoft.EntityFrameworkCore;

namespace Wallet;

public sealed class Account
{
    public string Id { get; set; } = "";
    public decimal Balance { get; set; }
}

public sealed class WalletDb(DbContextOptions<WalletDb> options) : DbContext(options)
{
    public DbSet<Account> Accounts => Set<Account>();
}

public sealed record Credit(string AccountId, decimal Amount);

public sealed class CreditAccountActivity(WalletDb db) : WorkflowActivity<Credit, decimal>
{
    public override async Task<decimal> RunAsync(WorkflowActivityContext context, Credit credit)
    {
        var account = await db.Accounts.SingleAsync(a => a.Id == credit.AccountId);
        account.Balance += credit.Amount; // want: unkeyed-side-effect
        await db.SaveChangesAsync();
        return account.Balance;
    }
}
