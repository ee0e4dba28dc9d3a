// Counts a campaign conversion in Redis with INCR: a retry counts it
// twice. Marking the order seen with SET NX is already idempotent.
using Dapr.Workflow;
using StackExchange.Redis;

namespace Campaigns;

public sealed record Conversion(string CampaignId, string OrderId);

public sealed class CountConversionActivity(IConnectionMultiplexer redis) : WorkflowActivity<Conversion, long>
{
    public override async Task<long> RunAsync(WorkflowActivityContext context, Conversion c)
    {
        var db = redis.GetDatabase();
        await db.StringSetAsync($"seen:{c.OrderId}", "1", when: When.NotExists);
        return await db.StringIncrementAsync($"conversions:{c.CampaignId}"); // want: unkeyed-side-effect
    }
}
