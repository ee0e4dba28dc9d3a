// Loyalty bookkeeping in Redis and MongoDB: a list push and a $inc count
// twice on a retry, an insert with no key of its own writes a second
// document; a lock and an upsert refuse the repeat.
using Dapr.Workflow;
using MongoDB.Bson;
using MongoDB.Driver;
using StackExchange.Redis;

namespace Loyalty;

public sealed record Earned(string CustomerId, string OrderId, int Points);

public sealed class RecordEarnedActivity(IConnectionMultiplexer redis) : WorkflowActivity<Earned, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Earned e)
    {
        var db = redis.GetDatabase();
        await db.ListRightPushAsync($"earned:{e.CustomerId}", e.OrderId); // want: unkeyed-side-effect
        return true;
    }
}

public sealed class ClaimOrderActivity(IConnectionMultiplexer redis) : WorkflowActivity<Earned, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Earned e)
    {
        var db = redis.GetDatabase();
        return await db.LockTakeAsync($"claim:{e.OrderId}", "worker", TimeSpan.FromMinutes(10));
    }
}

public sealed class AddPointsActivity(IMongoCollection<BsonDocument> balances) : WorkflowActivity<Earned, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Earned e)
    {
        var filter = Builders<BsonDocument>.Filter.Eq("_id", e.CustomerId);
        await balances.UpdateOneAsync(filter, Builders<BsonDocument>.Update.Inc("points", e.Points)); // want: unkeyed-side-effect
        return true;
    }
}

public sealed class SetTierActivity(IMongoCollection<BsonDocument> tiers) : WorkflowActivity<Earned, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Earned e)
    {
        var filter = Builders<BsonDocument>.Filter.Eq("_id", e.CustomerId);
        await tiers.UpdateOneAsync(filter, Builders<BsonDocument>.Update.Set("tier", "gold"), new UpdateOptions { IsUpsert = true });
        return true;
    }
}

public sealed class LogEarnedActivity(IMongoCollection<BsonDocument> history) : WorkflowActivity<Earned, bool>
{
    public override async Task<bool> RunAsync(WorkflowActivityContext context, Earned e)
    {
        await history.InsertOneAsync(new BsonDocument { { "customer", e.CustomerId }, { "points", e.Points } }); // want: unkeyed-side-effect
        return true;
    }
}
