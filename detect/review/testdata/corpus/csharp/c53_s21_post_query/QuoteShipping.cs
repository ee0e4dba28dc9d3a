// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// POSTs to endpoints whose path names a read (a quote, a destination
// check, a cost query): they ask, they change nothing. A local list
// whose name says db is a list, not a DbSet.
using Dapr.Workflow;

namespace Shipping;

public sealed record Parcel(string Country, double Kilos);

public sealed class QuoteShipping(HttpClient http) : WorkflowActivity<Parcel, string>
{
    public override async Task<string> RunAsync(WorkflowActivityContext context, Parcel parcel)
    {
        List<string> dbs = [];
        dbs.Add(parcel.Country);
        var ok = await http.PostAsJsonAsync("/checkDestination", parcel);
        ok.EnsureSuccessStatusCode();
        var url = $"https://rates.example.com/v2/{parcel.Country}/quote?unit=kg";
        var quote = await http.PostAsJsonAsync(url, parcel);
        return quote.IsSuccessStatusCode ? "quoted" : "no quote";
    }
}
